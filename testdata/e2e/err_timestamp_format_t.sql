-- A TO_TIMESTAMP format with a bare T: the error shows it quoted as ''T''.
CREATE TABLE t (txt STRING, k STRING, v STRING, ts AS TO_TIMESTAMP(txt, 'yyyy-MM-ddTHH:mm:ss.SSS'), WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/bad_rows.csv', 'format' = 'csv');
SELECT k, COUNT(*) AS n FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
