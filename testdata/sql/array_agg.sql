-- ARRAY_AGG's RESPECT NULLS / IGNORE NULLS (Flink's, not MySQL's), with DISTINCT and FILTER
SELECT ARRAY_AGG(amount), ARRAY_AGG(amount RESPECT NULLS), ARRAY_AGG(DISTINCT usr IGNORE NULLS) FILTER (WHERE amount > 1)
FROM clicks GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE);
-- COLLECT and PERCENTILE over an ARRAY of percentages
SELECT COLLECT(DISTINCT usr), PERCENTILE(amount, ARRAY[0.5, 0.9]) FROM clicks GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE);
-- ignore and nulls stay names elsewhere
SELECT ignore, nulls FROM clicks;
