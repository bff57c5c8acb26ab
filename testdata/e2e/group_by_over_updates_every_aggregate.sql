-- Every aggregate retracts over an update stream, as Flink's retracting
-- aggregate functions do: each -U and -D row takes its values out again.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
CREATE VIEW sums AS SELECT k, SUM(v) AS s, MAX(w) AS mw, LAST_VALUE(ts) AS last_ts FROM events GROUP BY k;

-- DECIMAL sums and averages; MIN and MAX of DECIMAL, BOOLEAN and TIMESTAMP
SELECT SUM(CAST(s AS DECIMAL(10, 2))) AS dsum, AVG(CAST(s AS DECIMAL(10, 2))) AS davg,
       MIN(CAST(s AS DECIMAL(10, 2))) AS dmin, MAX(s > 5) AS any_big,
       MIN(last_ts) AS earliest, MAX(last_ts) AS latest FROM sums;

-- FIRST_VALUE and LAST_VALUE keep every value in arrival order: taking
-- out the first finds the next
SELECT FIRST_VALUE(k) AS first_k, LAST_VALUE(s) AS last_s, FIRST_VALUE(last_ts) AS first_ts FROM sums;

-- the variance family
SELECT VAR_POP(s) AS vp, VAR_SAMP(s) AS vs, STDDEV_POP(s) AS sp, STDDEV_SAMP(s) AS ss FROM sums;

-- the aggregates that list values
SELECT LISTAGG(k, '|') AS ks, LISTAGG(DISTINCT CAST(mw AS STRING)) AS ws, ARRAY_AGG(s) AS arr,
       JSON_ARRAYAGG(k) AS j, JSON_OBJECTAGG(KEY k VALUE s) AS o FROM sums;

-- COLLECT, PERCENTILE and the DISTINCT aggregates count their values
SELECT COLLECT(s > 5) AS big, PERCENTILE(s, 0.5) AS median, SUM(DISTINCT mw) AS distinct_w,
       COUNT(DISTINCT CAST(s AS DECIMAL(10, 2))) AS n, ARRAY_AGG(DISTINCT s > 5) AS kinds FROM sums;
