-- Late firing within an allowed lateness, and late rows to a file.
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');
SET 'table.exec.emit.late-fire.enabled' = 'true';
SET 'table.exec.emit.late-fire.delay' = '0 s';
SET 'table.exec.emit.allow-lateness' = '1 min';
EXPLAIN SELECT usr, TUMBLE_END(ts, INTERVAL '1' MINUTE) AS wend, COUNT(*) AS n
FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
SET 'table.exec.emit.late-fire.enabled' = 'false';
SET 'wsql.late-data.path' = 'late.csv';
EXPLAIN SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
