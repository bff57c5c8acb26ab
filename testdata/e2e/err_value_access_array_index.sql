-- An ARRAY index is an integer.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  tags ARRAY<STRING>,
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
SELECT tags['a'] FROM clicks;
