-- A hint's value is checked as a WITH option's is.
CREATE TABLE t (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/bad_rows.csv', 'format' = 'csv');
SELECT k FROM t /*+ OPTIONS('csv.ignore-parse-errors' = 'yes') */;
