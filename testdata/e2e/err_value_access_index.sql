-- [ ] reads ARRAY elements and MAP values only.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  `user` ROW<id BIGINT, country STRING>,
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
SELECT user.country[1] FROM clicks;
