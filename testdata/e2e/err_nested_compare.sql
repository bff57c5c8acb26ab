-- Comparing ROW values is refused at the comparison (Flink compares them;
-- wsql's kernels compare scalars only yet).
CREATE TABLE clicks (ts TIMESTAMP(3), `user` ROW<id BIGINT, country STRING>, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
SELECT ts FROM clicks WHERE `user` = `user`;
