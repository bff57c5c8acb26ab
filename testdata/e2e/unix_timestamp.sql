-- UNIX_TIMESTAMP of text that cannot be read in the format is
-- Long.MIN_VALUE, as Flink documents ("If the date time string can not be
-- parsed, the default value Long.MIN_VALUE(-9223372036854775808) will be
-- returned"); of NULL it is NULL.
SET 'table.local-time-zone' = 'UTC';
CREATE TABLE samples (ts TIMESTAMP(3), x INT, s STRING, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/samples.csv', 'format' = 'csv');

SELECT s, UNIX_TIMESTAMP(s) AS from_text,
       UNIX_TIMESTAMP(DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss')) AS from_ts,
       UNIX_TIMESTAMP('garbage') AS garbage,
       UNIX_TIMESTAMP('2024-03-01', 'yyyy/MM/dd') AS wrong_format,
       UNIX_TIMESTAMP(CAST(NULL AS STRING)) AS of_null
FROM samples;
