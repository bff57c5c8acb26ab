CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');
SET 'table.exec.emit.early-fire.enabled' = 'true';
SELECT usr, COUNT(*) FROM clicks GROUP BY usr, SESSION(ts, INTERVAL '1' MINUTE);
