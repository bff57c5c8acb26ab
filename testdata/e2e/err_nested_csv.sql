-- The csv format cannot carry an ARRAY column yet: refused at the column
-- when the table is declared.
CREATE TABLE t (ts TIMESTAMP(3), tags ARRAY<STRING>)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
