-- LATERAL TABLE calls a table function a Go program registered.
CREATE TABLE clicks (ts TIMESTAMP(3), n INT, tags ARRAY<STRING>, WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
SELECT ts, w FROM clicks, LATERAL TABLE(split_words(tags)) AS t(w);
