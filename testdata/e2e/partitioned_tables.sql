-- PARTITIONED BY (cols), as Flink SQL has it. The print sink prints the
-- rows as they are; the filesystem sink writes a directory per partition
-- value, `col=value/`, with the other columns in the files, a NULL or
-- empty value as 'partition.default-name' and path characters escaped
-- (%XX); a partitioned table read back gets its partition columns from the
-- directory names.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
CREATE TABLE printed (v INT, k STRING) PARTITIONED BY (k) WITH ('connector' = 'print');
SHOW CREATE TABLE printed;
INSERT INTO printed SELECT v, k FROM events WHERE v < 4;
CREATE TABLE dropped (v INT, k STRING) PARTITIONED BY (k) WITH ('connector' = 'blackhole');
INSERT INTO dropped SELECT v, k FROM events;
-- LIKE copies the partitions (INCLUDING PARTITIONS is the default) ...
CREATE TABLE printed_too WITH ('connector' = 'print', 'print-identifier' = 'too') LIKE printed;
SHOW CREATE TABLE printed_too;
-- ... unless told not to
CREATE TABLE printed_flat LIKE printed (EXCLUDING PARTITIONS);
SHOW CREATE TABLE printed_flat;

-- Written: a directory per (day, key, v); a NULL is __DEFAULT_PARTITION__,
-- 'a/b' is escaped; the partitions are committed with a _SUCCESS file.
-- (One row per partition: a read of several files interleaves them by
-- batch, and this script's output must not depend on the batch size.)
CREATE TABLE by_day (ts TIMESTAMP(3), v INT, w BIGINT, dt STRING, k STRING) PARTITIONED BY (dt, k, v) WITH (
  'connector' = 'filesystem',
  'path' = 'testdata/e2e/partitioned_out/by_day',
  'format' = 'csv',
  'sink.partition-commit.policy.kind' = 'success-file'
);
INSERT INTO by_day
SELECT ts, v, w, DATE_FORMAT(ts, 'yyyy-MM-dd'), CASE WHEN k = 'c' THEN 'a/b' WHEN v = 5 THEN NULL ELSE k END
FROM events;
-- Read back: the partition columns come from the directory names, the
-- default name as NULL.
SELECT dt, k, v, w, ts FROM by_day;

-- A partitioned directory with typed partitions; hidden and _ files are
-- skipped, as Flink does. (One row per file, as above.)
CREATE TABLE hourly (k STRING, n INT, dt DATE, hr INT) PARTITIONED BY (dt, hr)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/partitioned', 'format' = 'csv');
SELECT dt, hr, k, n, hr + 1 AS next_hr FROM hourly;
