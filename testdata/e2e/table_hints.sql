-- Flink's dynamic table options: a table hint overrides or adds WITH
-- options for one statement. The table reads bad_rows.csv, whose bad rows
-- stop a query; the hint skips them for this query only.
CREATE TABLE t (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/bad_rows.csv', 'format' = 'csv');
SELECT k, COUNT(*) AS n, SUM(v) AS total
FROM t /*+ OPTIONS('csv.ignore-parse-errors' = 'true') */
GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
-- 'path' overridden: the same table reads another file, shown by EXPLAIN.
SELECT k, COUNT(*) AS n FROM t /*+ OPTIONS('path' = 'testdata/e2e/gaps.csv') */
GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
EXPLAIN SELECT k FROM t /*+ OPTIONS('path' = 'testdata/e2e/gaps.csv') */;
-- A hint on the table an INSERT writes: the print sink's identifier.
CREATE TABLE out_rows (k STRING, n BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'declared');
INSERT INTO out_rows /*+ OPTIONS('print-identifier' = 'hinted') */
SELECT k, COUNT(*) FROM t /*+ OPTIONS('csv.ignore-parse-errors' = 'true') */ GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
-- Without the hint the declared options are back: the bad row stops the query.
SELECT k, COUNT(*) AS n FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
