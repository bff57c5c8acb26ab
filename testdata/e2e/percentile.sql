-- PERCENTILE(expr, percentage [, frequency]), Flink's continuous
-- percentile as DOUBLE (Flink docs, sql_functions: "SELECT PERCENTILE(age,
-- 0.25) FROM (VALUES (10), (20), (30), (40)) AS age returns 17.5", and
-- "PERCENTILE(age, 0.5) ... (0), (50), (100) ... returns 50.0"). NULL values
-- are skipped, as are rows whose frequency is NULL or not positive; a
-- window without values gives NULL.
CREATE TABLE ages (ts TIMESTAMP(3), age INT, freq INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/percentile.csv', 'format' = 'csv');

SELECT window_start,
       PERCENTILE(age, 0.25) AS p25, PERCENTILE(age, 0.5) AS median,
       PERCENTILE(age, 0.5, freq) AS median_freq, PERCENTILE(age, 1) AS p100,
       PERCENTILE(age * 1.5, 0.5) FILTER (WHERE age < 100) AS median_scaled
FROM TABLE(TUMBLE(TABLE ages, DESCRIPTOR(ts), INTERVAL '10' MINUTES))
GROUP BY window_start, window_end;
