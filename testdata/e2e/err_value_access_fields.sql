-- An unknown field of a ROW is an error at the field, listing the fields when none is close.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  `user` ROW<id BIGINT, country STRING>,
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
SELECT `user`.`city` FROM clicks;
