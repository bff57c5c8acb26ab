-- A hint on the table an INSERT writes is checked by the sink's options.
CREATE TABLE t (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
CREATE TABLE out_rows (k STRING) WITH ('connector' = 'print');
INSERT INTO out_rows /*+ OPTIONS('print-identifer' = 'x') */ SELECT k FROM t;
