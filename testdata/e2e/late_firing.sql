-- With late firing and an allowed lateness the result is an update stream:
-- the two clicks that arrive after their minute closed (see the example)
-- update it instead of being dropped. The op column carries the row kind.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  usr STRING,
  amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');
SET 'table.exec.emit.late-fire.enabled' = 'true';
SET 'table.exec.emit.late-fire.delay' = '0 s';
SET 'table.exec.emit.allow-lateness' = '1 min';
SELECT usr, TUMBLE_END(ts, INTERVAL '1' MINUTE) AS wend, COUNT(*) AS n
FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
-- 15 seconds are too short for the first straggler (41 s behind its window's
-- end when it comes): it is dropped and counted; the second still updates
SET 'table.exec.emit.allow-lateness' = '15 s';
SELECT usr, TUMBLE_END(ts, INTERVAL '1' MINUTE) AS wend, COUNT(*) AS n
FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
