-- TIMESTAMP(p) and TIMESTAMP_LTZ(p) for p = 0 to 9, TIME(p) for p = 0 to 3,
-- as Flink reads, prints, casts and compares them. A TIMESTAMP(9) keeps
-- nanoseconds and prints 9 digits (Flink's CAST to STRING pads the fraction
-- to the precision: '2024-03-01 12:00:00.123456789'); CAST to a lower
-- precision truncates; TIME is TIME(0) and prints no fraction ('12:00:01').
CREATE TABLE samples (
  ts TIMESTAMP(3), t9 TIMESTAMP(9), t6 TIMESTAMP_LTZ(6), tm TIME, tm3 TIME(3), k STRING,
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/timestamp_precision.csv', 'format' = 'csv');

DESCRIBE samples;

SELECT t9, t6, tm, tm3,
       CAST(t9 AS TIMESTAMP(0)) AS t0, CAST(t9 AS TIMESTAMP(3)) AS t3, CAST(t9 AS TIMESTAMP(6)) AS t6_,
       CAST(t6 AS TIMESTAMP(9)) AS ltz9, CAST(t9 AS STRING) AS text, CAST(t9 AS TIME) AS time_of_day,
       CAST(tm3 AS TIME) AS tm0
FROM samples;

-- comparisons meet in the finer precision; intervals keep it
SELECT k, t9 > TIMESTAMP '2024-03-01 12:00:00.123456' AS after_micro,
       t9 + INTERVAL '1' SECOND AS later, tm < tm3 AS earlier, YEAR(t9) AS y,
       DATE_FORMAT(t9, 'HH:mm:ss.SSS') AS formatted,
       TIMESTAMP '2024-01-01 00:00:00.123456789' AS literal9, TIME '12:00:01' AS time0
FROM samples WHERE t9 IS NOT NULL;

-- MIN/MAX keep the precision; TIME and TIMESTAMP(9) are grouping keys
SELECT k, MIN(t9) AS first_t9, MAX(t6) AS last_t6, MAX(tm) AS last_tm, COUNT(*) AS n
FROM samples GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);

SELECT tm, t9, COUNT(*) AS n FROM samples GROUP BY tm, t9, TUMBLE(ts, INTERVAL '1' MINUTE);
