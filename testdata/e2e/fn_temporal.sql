-- Flink's time functions (sql_functions.yml, temporal), each with its
-- documented example where the list gives one. one_row.csv's second row is
-- NULL in s, i and flag; its ts is 2024-03-01 00:00:00.
SET 'table.local-time-zone' = 'UTC';
CREATE TABLE r (ts TIMESTAMP(3), s STRING, i INT, flag BOOLEAN, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/one_row.csv', 'format' = 'csv');

-- TIMESTAMPADD: months keep the day, clamped (2024-01-31 + 1 month is
-- 2024-02-29); a DATE stays a DATE for whole days
SELECT ts, TIMESTAMPADD(MONTH, 1, ts) AS plus_month, TIMESTAMPADD(DAY, -1, ts) AS minus_day,
       TIMESTAMPADD(HOUR, i, ts) AS plus_i_hours, TIMESTAMPADD(YEAR, 1, CAST(ts AS DATE)) AS date_year,
       TIMESTAMPADD(QUARTER, 1, DATE '2024-11-30') AS quarter, TIMESTAMPADD(WEEK, 2, ts) AS weeks,
       TIMESTAMPADD(MINUTE, 90, DATE '2024-01-01') AS date_minutes
FROM r;

-- TIMESTAMPDIFF(unit, t1, t2): "the (signed) number of timepointunit between
-- timepoint1 and timepoint2"; whole units, truncated toward zero
SELECT TIMESTAMPDIFF(DAY, ts, TIMESTAMP '2024-03-01 00:00:00') AS days,
       TIMESTAMPDIFF(HOUR, TIMESTAMP '2024-03-01 00:00:00', ts) AS hours,
       TIMESTAMPDIFF(MONTH, DATE '2024-01-31', DATE '2024-02-29') AS month_clamped,
       TIMESTAMPDIFF(MONTH, DATE '2024-01-31', DATE '2024-02-28') AS month_short,
       TIMESTAMPDIFF(YEAR, DATE '2000-02-29', DATE '2024-02-28') AS years,
       TIMESTAMPDIFF(SECOND, ts, ts + INTERVAL '1.5' SECOND) AS secs,
       TIMESTAMPDIFF(MINUTE, ts, CAST(NULL AS TIMESTAMP(3))) AS null_arg,
       TIMESTAMPADD(SECOND, 1, TIMESTAMP '2024-01-01 00:00:00.123456') AS add_ts6
FROM r;

-- FLOOR/CEIL(timepoint TO unit): "FLOOR(TIME '12:44:31' TO MINUTE)
-- returns 12:44:00", "CEIL(TIME '12:44:31' TO MINUTE) returns 12:45:00"
-- (and on a TIMESTAMP); a value on the boundary stays; weeks start on
-- Sunday
SELECT FLOOR(TIME '12:44:31' TO MINUTE) AS floor_time, CEIL(TIME '12:44:31' TO MINUTE) AS ceil_time,
       FLOOR(TIMESTAMP '2024-01-31 12:44:31' TO MINUTE) AS floor_min,
       CEIL(TIMESTAMP '2024-01-31 12:44:31' TO MINUTE) AS ceil_min,
       FLOOR(ts TO DAY) AS floor_day, CEIL(ts TO DAY) AS ceil_day, FLOOR(ts TO MONTH) AS floor_month,
       CEIL(ts TO QUARTER) AS ceil_quarter, FLOOR(ts TO YEAR) AS floor_year, FLOOR(ts TO WEEK) AS floor_week,
       CEILING(CAST(ts AS DATE) TO MONTH) AS ceil_date_month, FLOOR(ts TO SECOND) AS floor_sec,
       CEIL(CAST(ts AS TIMESTAMP(6)) TO HOUR) AS ceil_ts6
FROM r;

-- FROM_UNIXTIME: "FROM_UNIXTIME(44) returns '1970-01-01 00:00:44' if in UTC
-- time zone"; TO_DATE (default 'yyyy-MM-dd'); CONVERT_TZ:
-- "CONVERT_TZ('1970-01-01 00:00:00', 'UTC', 'America/Los_Angeles') returns
-- '1969-12-31 16:00:00'"
SELECT FROM_UNIXTIME(44) AS fu, FROM_UNIXTIME(i, 'yyyy/MM/dd HH:mm:ss') AS fu_fmt,
       TO_DATE('2024-03-01') AS td, TO_DATE('01/03/2024', 'dd/MM/yyyy') AS td_fmt, TO_DATE(s) AS td_bad,
       CONVERT_TZ('1970-01-01 00:00:00', 'UTC', 'America/Los_Angeles') AS ctz,
       CONVERT_TZ('2024-03-01 12:00:00', 'GMT+08:00', 'PST') AS ctz_short,
       CONVERT_TZ(s, 'UTC', 'UTC') AS ctz_null
FROM r;

-- UNIX_TIMESTAMP's documented examples ('table.local-time-zone' =
-- 'Europe/Berlin'): 25201, 1, 25201 and -9223372036854775808
SET 'table.local-time-zone' = 'Europe/Berlin';
SELECT UNIX_TIMESTAMP('1970-01-01 08:00:01.001', 'yyyy-MM-dd HH:mm:ss.SSS') AS u1,
       UNIX_TIMESTAMP('1970-01-01 08:00:01.001 +0800', 'yyyy-MM-dd HH:mm:ss.SSS X') AS u2,
       UNIX_TIMESTAMP('1970-01-01 08:00:01.001 +0800', 'yyyy-MM-dd HH:mm:ss.SSS') AS u3,
       UNIX_TIMESTAMP('1970-01-01 08:00:01.001', 'yyyy-MM-dd HH:mm:ss.SSS X') AS u4
FROM r WHERE i = 12;

-- in 'Asia/Tokyo', "FROM_UNIXTIME(44) ... returns '1970-01-01 09:00:44'";
-- an instant is floored on the session's wall clock
SET 'table.local-time-zone' = 'Asia/Tokyo';
SELECT FROM_UNIXTIME(44) AS fu_tokyo, FLOOR(TO_TIMESTAMP_LTZ(0, 3) TO DAY) AS ltz_day
FROM r WHERE i = 12;

-- DATE 'x' arithmetic and the calendar functions' documented examples
SELECT DATE '2024-02-28' + INTERVAL '1' DAY AS next_day, YEAR(DATE '1994-09-27') AS y,
       QUARTER(DATE '1994-09-27') AS q, MONTH(DATE '1994-09-27') AS m, WEEK(DATE '1994-09-27') AS w,
       DAYOFYEAR(DATE '1994-09-27') AS doy, DAYOFMONTH(DATE '1994-09-27') AS dom,
       DAYOFWEEK(DATE '1994-09-27') AS dow, HOUR(TIMESTAMP '1994-09-27 13:14:15') AS h,
       MINUTE(TIMESTAMP '1994-09-27 13:14:15') AS mi, SECOND(TIMESTAMP '1994-09-27 13:14:15') AS sec,
       EXTRACT(DAY FROM DATE '2006-06-05') AS ex
FROM r WHERE i = 12;
