SELECT 1, -2, 3.25, 1.5e3, 'it''s', 'C:\path', TRUE, false, NULL,
       a || b AS cat, CONCAT(a, b) AS fn,
       CAST(x AS BIGINT) AS c1, CAST(CAST(y AS STRING) AS TIMESTAMP_LTZ(3)) AS c2,
       CAST(z AS DECIMAL(10, 2)), DATE '2024-01-02',
       NOT flag, t.col, (a + b) * c - d / e % f,
       x IS NULL, y IS NOT NULL, key, UPPER(name), PROCTIME(),
       CURRENT_TIMESTAMP
FROM t
WHERE a <> 1 AND b != 2 OR c <= 3 AND d >= 4 AND e < 5 AND f > 6 AND g = 7
GROUP BY a, b
HAVING SUM(DISTINCT x) > 10
