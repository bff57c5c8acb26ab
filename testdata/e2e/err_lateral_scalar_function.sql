-- LATERAL TABLE calls a table function, not a scalar one.
CREATE TABLE clicks (ts TIMESTAMP(3), n INT, tags ARRAY<STRING>, WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
SELECT ts, w FROM clicks, LATERAL TABLE(UPPER('a')) AS t(w);
