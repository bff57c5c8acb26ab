-- Interval expressions fold to one interval: sums, differences, negation
-- and a product with an integer. CAST(... AS STRING) writes them as Flink
-- prints intervals: day-time as +d hh:mm:ss.fff (Flink's
-- CAST(INTERVAL '2' DAY AS STRING) is '+2 00:00:00.000'), year-month as
-- +y-mm (INTERVAL '1-2' YEAR TO MONTH is '+1-02').
SELECT CAST(INTERVAL '2' DAY AS STRING) AS two_days,
       CAST(INTERVAL '1-2' YEAR TO MONTH AS STRING) AS years_months,
       CAST(INTERVAL '10 00:00:00.004' DAY TO SECOND AS STRING) AS flink_doc_example,
       CAST(INTERVAL '1' DAY * 3 + INTERVAL '1:30' HOUR TO MINUTE AS STRING) AS sum_day_time,
       CAST(-INTERVAL '14' MONTH AS STRING) AS negative,
       CAST(INTERVAL '1' YEAR - INTERVAL '13' MONTH AS STRING) AS below_zero;

-- Intervals of the same kind compare by length.
SELECT INTERVAL '1' YEAR > INTERVAL '11' MONTH AS year_longer,
       INTERVAL '24' HOUR = INTERVAL '1' DAY AS same_length,
       INTERVAL '1.5' SECOND <= INTERVAL '1500' SECOND AS shorter;

-- A folded interval moves a time value like a literal one.
SELECT DATE '2024-01-31' + INTERVAL '1' MONTH * 2 AS two_months,
       TIMESTAMP '2024-01-31 00:00:00' + 2 * INTERVAL '1.5' SECOND AS three_seconds,
       DATE '2024-01-31' + (INTERVAL '1' YEAR + INTERVAL '1' MONTH) AS year_and_month;
