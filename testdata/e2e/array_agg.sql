-- ARRAY_AGG([DISTINCT] x [RESPECT NULLS | IGNORE NULLS]), COLLECT([DISTINCT] x)
-- and PERCENTILE(x, ARRAY[...]) in every kind of window.
-- Flink's documented example (Confluent's Flink SQL reference, ARRAY_AGG):
-- sales (Apple, 3), (Banana, 5), (Apple, 7), (Orange, 2), (Banana, 4) give
-- Apple [3, 7], Orange [2], Banana [5, 4]: values in arrival order. NULL
-- values are kept unless IGNORE NULLS (Flink's ArrayAggFunctionITCase: 3,
-- NULL gives [3, NULL], and NULL alone [NULL] but NULL with IGNORE NULLS).
-- COLLECT is the MULTISET of the non-NULL values with their counts, listed
-- by first arrival ({} without values). PERCENTILE(col, ARRAY[0.25, 0.75])
-- over 0 and 10 is [2.5, 7.5] (FLINK-36123).
CREATE TABLE sales (ts TIMESTAMP(3), product STRING, qty INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/array_agg.csv', 'format' = 'csv');

SELECT product, window_start,
       ARRAY_AGG(qty) AS quantities,
       ARRAY_AGG(DISTINCT qty IGNORE NULLS) AS distinct_quantities,
       ARRAY_AGG(qty RESPECT NULLS) FILTER (WHERE qty IS NULL OR qty > 3) AS big_or_unknown,
       COLLECT(qty) AS qty_counts,
       COLLECT(DISTINCT qty) AS qty_set,
       PERCENTILE(qty, ARRAY[0.25, 0.75]) AS quartiles
FROM TABLE(TUMBLE(TABLE sales, DESCRIPTOR(ts), INTERVAL '10' MINUTES))
GROUP BY product, window_start, window_end;

-- Group windows: HOP merges its panes, SESSION its sessions, by arrival
SELECT HOP_START(ts, INTERVAL '10' MINUTE, INTERVAL '20' MINUTE) AS hop_start,
       ARRAY_AGG(product) AS products, COLLECT(product) AS product_counts
FROM sales GROUP BY HOP(ts, INTERVAL '10' MINUTE, INTERVAL '20' MINUTE);

SELECT product, SESSION_START(ts, INTERVAL '15' MINUTE) AS session_start,
       ARRAY_AGG(qty) AS quantities, PERCENTILE(qty, ARRAY[0.5, 1.0]) AS median_and_max
FROM sales GROUP BY product, SESSION(ts, INTERVAL '15' MINUTE);

-- CUMULATE, and a count window: every 2 sales of a product
SELECT window_end, ARRAY_AGG(DISTINCT product) AS products
FROM TABLE(CUMULATE(TABLE sales, DESCRIPTOR(ts), INTERVAL '10' MINUTES, INTERVAL '30' MINUTES))
GROUP BY window_start, window_end;

SELECT product, ARRAY_AGG(qty) AS pair, COLLECT(qty) AS counts
FROM sales GROUP BY product, COUNT_WINDOW(2);

-- Early firing: every sale updates its product's window
SET 'table.exec.emit.early-fire.enabled' = 'true';
SET 'table.exec.emit.early-fire.delay' = '0 s';
SELECT product, ARRAY_AGG(qty) AS so_far, COLLECT(qty) AS counts_so_far
FROM sales WHERE product = 'Apple' GROUP BY product, TUMBLE(ts, INTERVAL '10' MINUTE);
