-- A directory is a source of splits, one per file (hidden files and
-- _SUCCESS are skipped), read interleaved, each file with its own watermark
-- generator; the source's watermark is the minimum over the files still
-- being read. The files are minutes apart and the first one read holds the
-- latest times, yet no row of any file is late.
CREATE TABLE parts (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/splits', 'format' = 'csv',
      'scan.watermark.idle-timeout' = '1 min');
EXPLAIN SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS s, COUNT(*) AS n, SUM(v) AS sv
FROM parts GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS s, COUNT(*) AS n, SUM(v) AS sv
FROM parts GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
-- The same rows as one file have one generator: the rows after the first
-- file's are behind its watermark and late.
CREATE TABLE one_file (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/splits_one_file.csv', 'format' = 'csv');
SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS s, COUNT(*) AS n, SUM(v) AS sv
FROM one_file GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
