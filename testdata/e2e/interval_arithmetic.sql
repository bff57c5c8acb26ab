-- A TIMESTAMP, DATE or TIME plus or minus an interval computed per row,
-- as Flink's generated code computes it (ScalarOperatorGens.
-- generateTemporalPlusMinus): a TIMESTAMP moves by the milliseconds, or
-- by months with the day of month clamped (DateTimeUtils.addMonths:
-- 2024-01-31 + 1 MONTH is 2024-02-29); the result has the operand's type.
CREATE TABLE shifts (n INT, ts TIMESTAMP(3), ts6 TIMESTAMP(6), d DATE, t TIME)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/interval_shifts.csv', 'format' = 'csv', 'csv.ignore-first-line' = 'true');

SELECT n, ts + INTERVAL '1' SECOND * n AS plus_seconds, ts - INTERVAL '1' HOUR * n AS minus_hours,
       ts6 + INTERVAL '0.001' SECOND * n AS micros_kept, INTERVAL '1' MONTH * n + ts AS plus_months,
       CAST(ts AS TIMESTAMP_LTZ(3)) - INTERVAL '1' YEAR * n AS ltz_minus_years
FROM shifts;

-- a DATE moves by whole days: Flink adds ms / 86400000, truncated toward
-- zero, so 25 hours is one day and -2 hours none; months are clamped
SELECT n, d + INTERVAL '1' HOUR * n AS plus_hours, d - INTERVAL '1' DAY * n AS minus_days,
       d + INTERVAL '1' MONTH * n AS plus_months
FROM shifts;

-- a TIME wraps around midnight, ((t + day) ± ms % day) % day as Flink
-- computes it; a year-month interval leaves a TIME unchanged
SELECT n, t + INTERVAL '1' HOUR * n AS plus_hours, t - INTERVAL '30' MINUTE * n AS minus_half_hours,
       t + INTERVAL '1' MONTH * n AS plus_months
FROM shifts;

-- intervals computed per row add, subtract and negate within their kind
SELECT n, INTERVAL '1' HOUR * n + INTERVAL '30' MINUTE AS hours_and_half, INTERVAL '1' MONTH * n - INTERVAL '1' YEAR AS months_less_year,
       -(INTERVAL '1' DAY * n) AS neg_days, INTERVAL '1' SECOND * n - INTERVAL '1' SECOND * n AS zero,
       ts + -(INTERVAL '1' DAY * n) AS back_days
FROM shifts;

-- interval constants on a TIME, and a DATE moved by part of a day
SELECT TIME '23:30:00' + INTERVAL '1' HOUR AS wraps, TIME '00:15:00' - INTERVAL '30' MINUTE AS wraps_back,
       TIME '10:00:00' + INTERVAL '1' YEAR AS unchanged, INTERVAL '25' HOUR + TIME '00:00:00' AS plus_day_and_hour,
       DATE '2024-01-31' + INTERVAL '25' HOUR AS next_day, DATE '2024-01-31' - INTERVAL '1' HOUR AS same_day;

CREATE VIEW shifted AS SELECT ts + INTERVAL '1' SECOND * n AS ts3, ts6 - INTERVAL '1' SECOND * n AS ts6,
       d + INTERVAL '1' DAY * n AS d, t + INTERVAL '1' MINUTE * n AS t, INTERVAL '1' MONTH * n + INTERVAL '1' MONTH AS months
FROM shifts;
DESCRIBE shifted;

-- a year-month and a day-time interval do not add: a month has no fixed length
SELECT INTERVAL '1' MONTH * n + INTERVAL '1' DAY * n FROM shifts;
