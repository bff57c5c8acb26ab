-- Year-month intervals count calendar months. Flink's docs (built-in
-- functions, "INTERVAL string range"): INTERVAL '2-10' YEAR TO MONTH is two
-- years and ten months. Adding months keeps the time of day and clamps the
-- day to the end of the target month (Flink's DateTimeUtils.addMonths):
-- 2024-01-31 + INTERVAL '1' MONTH is 2024-02-29.
SET 'table.local-time-zone' = 'America/New_York';

SELECT DATE '2024-01-31' + INTERVAL '1' MONTH AS end_of_month,
       DATE '2024-02-29' + INTERVAL '1' YEAR AS leap_day,
       DATE '2024-03-31' - INTERVAL '1' MONTH AS minus_month,
       INTERVAL '2-10' YEAR TO MONTH + DATE '2000-01-15' AS year_to_month,
       DATE '2024-05-31' + INTERVAL -'3' MONTH AS negative,
       DATE '2024-05-31' + INTERVAL '-1-1' YEAR TO MONTH AS negative_range;

SELECT TIMESTAMP '2024-01-31 23:59:59.999' + INTERVAL '1' MONTH AS ts_end_of_month,
       CAST('2023-01-31 10:30:00.123456' AS TIMESTAMP(6)) + INTERVAL '13' MONTHS AS ts6,
       TIMESTAMP '1969-12-31 12:00:00' - INTERVAL '100' YEAR AS before_1970;

-- TIMESTAMP_LTZ moves its wall clock in the session zone: 10:00 New York in
-- January (EST, 15:00 UTC) is 10:00 New York in July (EDT, 14:00 UTC), not
-- 11:00 as six months of UTC days would give.
SELECT CAST(TIMESTAMP '2024-01-15 10:00:00' AS TIMESTAMP_LTZ(3)) + INTERVAL '6' MONTH AS ltz;

CREATE TABLE samples (ts TIMESTAMP(3), x INT, s STRING, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/samples.csv', 'format' = 'csv');

SELECT ts, ts + INTERVAL '1-1' YEAR TO MONTH AS later, CAST(ts AS DATE) - INTERVAL '2' YEARS AS earlier
FROM samples WHERE x < 3;
