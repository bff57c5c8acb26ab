-- Flink's csv format reads only scalar elements of an ARRAY or ROW ("Only
-- simple types are supported in the second level nesting"): refused at the
-- column when the table is declared.
CREATE TABLE t (ts TIMESTAMP(3), items ARRAY<ROW<sku STRING>>)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
