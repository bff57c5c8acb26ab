-- A LEFT JOIN with UNNEST or a table function takes ON TRUE only, as in Flink.
CREATE TABLE clicks (ts TIMESTAMP(3), n INT, tags ARRAY<STRING>, WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
SELECT ts, tag FROM clicks LEFT JOIN UNNEST(tags) AS t(tag) ON tag = 'a';
