-- A DECIMAL that cannot hold a value is NULL, as in Flink: CAST of a
-- constant (folded while planning, so EXPLAIN shows it) and of a column read
-- from CSV, rescaling DECIMAL(38, 0) to DECIMAL(38, 2) or narrowing it.
-- None of these may panic.
CREATE TABLE nums (
  id INT,
  big DECIMAL(38, 0),
  price DECIMAL(10, 3),
  n INT
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/decimals.csv', 'format' = 'csv');

EXPLAIN SELECT id, CAST(CAST('99999999999999999999999999999999999999' AS DECIMAL(38, 0)) AS DECIMAL(38, 2)) AS folded
FROM nums;

SELECT id,
  CAST(CAST('99999999999999999999999999999999999999' AS DECIMAL(38, 0)) AS DECIMAL(38, 2)) AS folded,
  CAST(big AS DECIMAL(38, 2)) AS rescaled,
  CAST(big AS DECIMAL(5, 1)) AS narrowed,
  CAST(price AS DECIMAL(3, 2)) AS rounded,
  CAST(n AS DECIMAL(38, 29)) AS from_int,
  CAST(CAST(n AS DOUBLE) * 1e30 AS DECIMAL(38, 2)) AS from_double,
  CAST(CAST(id AS STRING) || '00000000000000000000000000000000000000' AS DECIMAL(38, 0)) AS from_text
FROM nums;
