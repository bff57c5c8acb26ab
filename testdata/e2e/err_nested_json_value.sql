-- A value of the wrong type inside a nested column is a bad row: its file,
-- line, the path of the field and the value.
CREATE TABLE clicks (ts TIMESTAMP(3), `user` ROW<id BIGINT, name INT>, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
SELECT ts, `user` FROM clicks;
