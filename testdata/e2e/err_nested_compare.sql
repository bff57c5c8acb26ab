-- ROW values are compared only for equality (=, <>, IS [NOT] DISTINCT
-- FROM), as in Flink: an ordering comparison is refused at the operator.
CREATE TABLE clicks (ts TIMESTAMP(3), `user` ROW<id BIGINT, country STRING>, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
SELECT ts FROM clicks WHERE `user` < `user`;
