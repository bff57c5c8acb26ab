-- General computed columns: any deterministic expression over the
-- physical columns, usable in the WATERMARK, in WHERE and as group keys.
CREATE TABLE clicks (
  epoch BIGINT,
  dt STRING,
  `user` STRING,
  n INT,
  total AS n * 2 + 1,
  name AS UPPER(`user`),
  ts AS TO_TIMESTAMP_LTZ(epoch, 3) + INTERVAL '1' HOUR,
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/epochs.csv', 'format' = 'csv');
DESCRIBE clicks;
SELECT name, total, ts FROM clicks WHERE total > 7;
SELECT name, SUM(total) AS s, TUMBLE_END(ts, INTERVAL '2' MINUTE) AS wend
FROM clicks GROUP BY name, TUMBLE(ts, INTERVAL '2' MINUTE);
