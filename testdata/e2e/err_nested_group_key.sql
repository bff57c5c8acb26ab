-- Grouping by a ROW value is refused at the key (Flink allows it; wsql's
-- key tables hold scalar values only yet).
CREATE TABLE clicks (ts TIMESTAMP(3), `user` ROW<id BIGINT, country STRING>, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
SELECT COUNT(*) AS n FROM clicks GROUP BY `user`, TUMBLE(ts, INTERVAL '1' MINUTE);
