-- DATE_FORMAT writes Java's date pattern letters as Flink does (Flink:
-- "the format string is compatible with Java's SimpleDateFormat"; it
-- formats with DateTimeFormatter, English names):
-- DATE_FORMAT(ts, 'dd MMM yyyy') of 2024-03-01 is '01 Mar 2024'.
SET 'table.local-time-zone' = 'UTC';
CREATE TABLE samples (ts TIMESTAMP(3), x INT, s STRING, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/samples.csv', 'format' = 'csv');

SELECT DATE_FORMAT(ts, 'dd MMM yyyy') AS short_date,
       DATE_FORMAT(ts, 'EEEE, MMMM d, yyyy h:mm a') AS long_date,
       DATE_FORMAT(ts, 'EEE hh:mm:ss.SSS ''o''''clock''') AS quoted,
       DATE_FORMAT(CAST(ts AS DATE), 'yyyy-MM-dd EEE') AS of_date,
       DATE_FORMAT(CAST(ts AS TIMESTAMP_LTZ(3)), 'HH:mm a') AS of_ltz,
       TO_TIMESTAMP(DATE_FORMAT(ts, 'EEE dd MMM yyyy hh:mm a'), 'EEE dd MMM yyyy hh:mm a') AS read_back
FROM samples WHERE x > 4;

-- a zone letter: the value is a wall-clock time
SELECT DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm z') FROM samples;
