-- ISO-8601 timestamps with Z or an offset in a TIMESTAMP(3) column: the
-- error proposes TIMESTAMP_LTZ(3).
CREATE TABLE t (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/zoned_timestamps.csv', 'format' = 'csv');
SELECT k, COUNT(*) AS n FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
