-- Windows over TIMESTAMP_LTZ aligned in the session time zone.
CREATE TABLE by_epoch (epoch BIGINT, usr STRING, n INT, ts AS TO_TIMESTAMP_LTZ(epoch, 3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'epochs.csv', 'format' = 'csv');
SET 'table.local-time-zone' = 'Asia/Shanghai';
EXPLAIN SELECT usr, TUMBLE_START(ts, INTERVAL '1' DAY) AS day_start, TUMBLE_ROWTIME(ts, INTERVAL '1' DAY) AS rt, COUNT(*) AS n
FROM by_epoch GROUP BY usr, TUMBLE(ts, INTERVAL '1' DAY);
