-- Windows over TIMESTAMP_LTZ align in the session time zone: in Shanghai a
-- one-day window starts at local midnight (16:00 UTC the day before), its
-- start and end are local TIMESTAMPs and its rowtime an instant.
CREATE TABLE by_epoch (
  epoch BIGINT, txt STRING, usr STRING, n INT,
  ts AS TO_TIMESTAMP_LTZ(epoch, 3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/epochs.csv', 'format' = 'csv');
SET 'table.local-time-zone' = 'Asia/Shanghai';
SELECT usr, TUMBLE_START(ts, INTERVAL '1' DAY) AS day_start, TUMBLE_END(ts, INTERVAL '1' DAY) AS day_end,
       TUMBLE_ROWTIME(ts, INTERVAL '1' DAY) AS rt, COUNT(*) AS n
FROM by_epoch GROUP BY usr, TUMBLE(ts, INTERVAL '1' DAY);
SET 'table.local-time-zone' = 'UTC';
SELECT usr, TUMBLE_START(ts, INTERVAL '1' DAY) AS day_start, COUNT(*) AS n
FROM by_epoch GROUP BY usr, TUMBLE(ts, INTERVAL '1' DAY);
