-- GROUPING SETS, ROLLUP and CUBE, lifted into their sets (the cross
-- product of the constructs, Flink's order); plain keys stay in GroupBy.
SELECT a, b, GROUPING(a, b), COUNT(*) FROM t GROUP BY GROUPING SETS ((a, b), a, ());
SELECT a FROM t GROUP BY ROLLUP (a, (b, c));
SELECT a FROM t GROUP BY cube (a, b);
SELECT a FROM t GROUP BY x, ROLLUP (a), CUBE (b) HAVING GROUPING(b) = 0;
SELECT a FROM t GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE), GROUPING SETS (a, ROLLUP (b, c), (UPPER(a)));
