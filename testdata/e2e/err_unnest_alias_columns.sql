-- The alias names each column UNNEST gives.
CREATE TABLE clicks (ts TIMESTAMP(3), n INT, tags ARRAY<STRING>, WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
SELECT * FROM clicks CROSS JOIN UNNEST(tags) WITH ORDINALITY AS t(tag);
