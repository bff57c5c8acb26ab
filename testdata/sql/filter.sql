-- An aggregate's FILTER clause (Flink's, not MySQL's)
SELECT usr, COUNT(*) FILTER (WHERE amount > 1) AS n, SUM(amount) FILTER (WHERE usr = 'a' AND amount < 10)
FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
SELECT COUNT(DISTINCT usr, amount) filter(where amount IS NOT NULL) * 2, FIRST_VALUE(usr) FILTER (WHERE CAST(amount AS INT) > 1)
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end;
-- filter as a name stays a name
SELECT amount filter FROM clicks;
-- DISTINCT in Flink's aggregates that MySQL lacks
SELECT LISTAGG(DISTINCT usr, ';'), FIRST_VALUE(DISTINCT usr), PERCENTILE(DISTINCT amount, 0.5) FILTER (WHERE usr <> 'x')
FROM clicks GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE);
