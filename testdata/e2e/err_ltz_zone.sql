-- Windows over TIMESTAMP_LTZ align in the session time zone; until that is
-- built, a zone other than UTC is refused rather than aligned wrongly.
CREATE TABLE by_epoch (
  epoch BIGINT, txt STRING, usr STRING, n INT,
  ts AS TO_TIMESTAMP_LTZ(epoch, 3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/epochs.csv', 'format' = 'csv');
SET 'table.local-time-zone' = 'Asia/Shanghai';
SELECT usr, COUNT(*) FROM by_epoch GROUP BY usr, TUMBLE(ts, INTERVAL '1' DAY);
