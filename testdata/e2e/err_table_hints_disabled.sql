-- With Flink's 'table.dynamic-table-options.enabled' off, a hint is an error.
CREATE TABLE t (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SET 'table.dynamic-table-options.enabled' = 'false';
SELECT k FROM t /*+ OPTIONS('csv.ignore-parse-errors' = 'true') */;
