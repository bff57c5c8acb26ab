-- Early firing with delay 0: every click updates its user's current
-- five-minute window right away; the final firing adds nothing new.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  usr STRING,
  amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');
SET 'table.exec.emit.early-fire.enabled' = 'true';
SET 'table.exec.emit.early-fire.delay' = '0 s';
CREATE TABLE out_print (usr STRING, n BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'early');
INSERT INTO out_print SELECT usr, COUNT(*) FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '5' MINUTE);
