-- A hint's key is checked against the connector's and format's options as
-- CREATE TABLE's are: the error points at the key in the query.
CREATE TABLE t (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/bad_rows.csv', 'format' = 'csv');
SELECT k FROM t /*+ OPTIONS('csv.ignore-parse-error' = 'true') */;
