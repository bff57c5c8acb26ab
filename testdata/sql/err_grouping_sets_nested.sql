-- A grouping set lists expressions: ROLLUP nests only in GROUPING SETS.
SELECT a FROM t GROUP BY GROUPING SETS ((a, ROLLUP (b)));
