-- Flink's csv format has no MAP or MULTISET ("Unsupported type"): refused
-- at the column when the table is declared.
CREATE TABLE t (ts TIMESTAMP(3), attrs MAP<STRING, INT>)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
