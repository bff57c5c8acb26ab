-- UNNEST expands an array, a multiset or a map; anything else is refused at it.
CREATE TABLE clicks (ts TIMESTAMP(3), n INT, tags ARRAY<STRING>, WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
SELECT ts, x FROM clicks CROSS JOIN UNNEST(n) AS t(x);
