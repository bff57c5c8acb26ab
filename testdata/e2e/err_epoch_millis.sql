-- Epoch milliseconds in a TIMESTAMP column: the error proposes a BIGINT
-- column and a computed TO_TIMESTAMP_LTZ column, as DDL lines.
CREATE TABLE t (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/epoch_millis.csv', 'format' = 'csv');
SELECT k, COUNT(*) AS n FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
