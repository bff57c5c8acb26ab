-- TIMESTAMP and TIMESTAMP_LTZ without a precision are TIMESTAMP(6) and
-- TIMESTAMP_LTZ(6), as in Flink: microseconds, printed with 6 digits. A
-- rowtime must be TIMESTAMP(3) or finer-grained than milliseconds is refused,
-- as Flink refuses a WATERMARK on a TIMESTAMP(6) column.
CREATE TABLE micros (ts TIMESTAMP(3), t9 TIMESTAMP, t6 TIMESTAMP_LTZ, tm TIME, tm3 TIME(3), k STRING)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/timestamp_precision.csv', 'format' = 'csv');

DESCRIBE micros;

SET 'table.local-time-zone' = 'UTC';

SELECT t9, t6, CAST(ts AS TIMESTAMP) AS widened, CAST('2024-03-01 12:00:00.1234567' AS TIMESTAMP) AS cut FROM micros;

CREATE TABLE ticks (ts TIMESTAMP, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/timestamp_precision.csv', 'format' = 'csv');
