-- METADATA columns of the filesystem connector: each row carries the file
-- it was read from (Flink's 'file.name', 'file.path', 'file.size'). Without
-- FROM the column's name is the key; VIRTUAL columns are read only.
CREATE TABLE parts (
  ts TIMESTAMP(3), k STRING, v INT,
  fname STRING METADATA FROM 'file.name' VIRTUAL,
  fpath STRING METADATA FROM 'file.path',
  `file.size` BIGINT METADATA VIRTUAL,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/splits', 'format' = 'csv',
      'scan.watermark.idle-timeout' = '1 min');
DESCRIBE parts;
SELECT k, v, fname, fpath, `file.size` FROM parts WHERE fname = 'part-1.csv';
-- a count per file: the file's name as a grouping key
SELECT fname, TUMBLE_START(ts, INTERVAL '1' DAY) AS d, COUNT(*) AS n, SUM(v) AS sv
FROM parts GROUP BY fname, TUMBLE(ts, INTERVAL '1' DAY);
