-- A positive early-fire delay fires periodically in processing time. The
-- tests' clock stands still, so no early firing comes due: each window
-- emits once, on time, as +I of an update stream. (windowop's tests move a
-- manual clock to pin the periodic firings.)
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');
SET 'table.exec.emit.early-fire.enabled' = 'true';
SET 'table.exec.emit.early-fire.delay' = '10 s';
SELECT usr, COUNT(*) FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
