-- Interval values as result columns, with Flink's text (+d hh:mm:ss.fff,
-- +y-mm). Flink's docs: INTERVAL '10 00:00:00.004' DAY TO SECOND,
-- INTERVAL '10' DAY and INTERVAL '2-10' YEAR TO MONTH; Flink prints them
-- +10 00:00:00.004, +10 00:00:00.000 and +2-10.
CREATE TABLE factors (n INT, x DOUBLE, ts TIMESTAMP(3))
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/interval_factors.csv', 'format' = 'csv', 'csv.ignore-first-line' = 'true');

SELECT INTERVAL '10 00:00:00.004' DAY TO SECOND AS dts, INTERVAL '10' DAY AS d, INTERVAL '2-10' YEAR TO MONTH AS ym,
       INTERVAL '2' DAY * 2 AS four_days, -INTERVAL '90' MINUTE AS neg, INTERVAL '1' DAY / 2 AS half_day,
       INTERVAL '10' MONTH / 3 AS third, INTERVAL '1' DAY * 1.5 AS day_and_half,
       CAST(INTERVAL '1-2' YEAR TO MONTH AS STRING) AS text;

-- an interval times or divided by a number column: Flink's (long) (ms * n),
-- truncated toward zero; a division by 0.0 saturates as Java's cast does
SELECT n, x, INTERVAL '1' HOUR * n AS hours, n * INTERVAL '1' MONTH AS months,
       INTERVAL '1' DAY / x AS per_x, CAST(INTERVAL '1' SECOND * n AS STRING) AS text
FROM factors;

CREATE VIEW spans AS SELECT INTERVAL '1' HOUR * n AS hours, n * INTERVAL '1' MONTH AS months FROM factors;
DESCRIBE spans;

-- intervals computed per row compare with intervals of their kind and
-- group a window's rows
SELECT n, INTERVAL '1' DAY * n > INTERVAL '1' DAY AS longer, INTERVAL '1' MONTH * n = INTERVAL '-3' MONTH AS minus_three
FROM factors;

CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');

SELECT INTERVAL '1' SECOND * v AS span, COUNT(*) AS cnt FROM events
GROUP BY INTERVAL '1' SECOND * v, TUMBLE(ts, INTERVAL '1' HOUR);

-- an interval computed per row moves a time (interval_arithmetic.sql)
SELECT ts + INTERVAL '1' SECOND * n FROM factors;
