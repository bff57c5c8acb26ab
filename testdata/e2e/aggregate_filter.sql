-- An aggregate's FILTER (WHERE condition) folds only the rows whose
-- condition is TRUE (Flink SQL, SELECT: "aggregate_function(...) [FILTER
-- (WHERE condition)]"). A row whose condition is FALSE or NULL still opens
-- its window: [10:10, 10:20) has COUNT(*) FILTER 0 and SUM ... FILTER NULL.
CREATE TABLE orders (ts TIMESTAMP(3), k STRING, x INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/aggregate_filter.csv', 'format' = 'csv');

-- a window table function
SELECT window_start, COUNT(*) AS n,
       COUNT(*) FILTER (WHERE x > 1) AS n_big,
       SUM(x) FILTER (WHERE k = 'a') AS sum_a,
       COUNT(DISTINCT x) FILTER (WHERE k = 'a') AS distinct_a,
       AVG(x) FILTER (WHERE x > 100) AS avg_none,
       MAX(k) FILTER (WHERE x IS NULL) AS k_of_null
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' MINUTES))
GROUP BY window_start, window_end;

-- a group window, with an expression argument and a filter over the key
SELECT k, TUMBLE_START(ts, INTERVAL '10' MINUTE) AS s,
       SUM(x * 10) FILTER (WHERE x <> 2) AS sum_not_2,
       COUNT(*) FILTER (WHERE k = 'b') + 1 AS b_plus_1
FROM orders
GROUP BY k, TUMBLE(ts, INTERVAL '10' MINUTE);

-- HOP merges panes: each window folds only its TRUE rows
SELECT window_start, window_end, COUNT(x) FILTER (WHERE x >= 2) AS n_ge_2
FROM TABLE(HOP(TABLE orders, DESCRIPTOR(ts), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES))
GROUP BY window_start, window_end;

-- COUNT(DISTINCT a, b) counts the distinct pairs without a NULL:
-- (a,1) (b,2) (a,3) in [10:00, 10:10); (a,NULL) is not counted.
-- LISTAGG(DISTINCT x) joins each value once, where it first came;
-- PERCENTILE(DISTINCT x, 0.75) of 1, 2, 3 is 2.5, where PERCENTILE(x,
-- 0.75) of 1, 2, 3, 2, 3 is 3.0.
SELECT window_start, COUNT(DISTINCT k, x) AS pairs, COUNT(DISTINCT k) AS keys,
       LISTAGG(DISTINCT CAST(x AS STRING), '|') AS xs, LISTAGG(DISTINCT k) FILTER (WHERE x > 2) AS ks_big,
       PERCENTILE(DISTINCT x, 0.75) AS p75_distinct, PERCENTILE(x, 0.75) AS p75
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' MINUTES))
GROUP BY window_start, window_end;

EXPLAIN SELECT window_start, COUNT(*) FILTER (WHERE x > 1) AS n_big
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' MINUTES))
GROUP BY window_start, window_end;
