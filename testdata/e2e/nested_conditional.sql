-- CASE (both forms), COALESCE, IF, NULLIF and IFNULL over ROW, ARRAY, MAP
-- and MULTISET values, as Flink: results of the same nested type (or a
-- NULL literal) give that type, each row takes its branch's whole value.
CREATE TABLE pairs (
  n INT,
  r1 ROW<id BIGINT, s STRING>, r2 ROW<id INT, s STRING>,
  a1 ARRAY<INT>, a2 ARRAY<BIGINT>,
  m1 MAP<STRING, INT>, m2 MAP<STRING, INT>,
  s1 MULTISET<STRING>, s2 MULTISET<STRING>
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/nested_pairs.jsonl', 'format' = 'json');
SELECT n,
  CASE WHEN n < 3 THEN m1 WHEN n = 3 THEN m2 END AS m_case,
  CASE n WHEN 1 THEN s1 WHEN 4 THEN NULL ELSE s2 END AS s_case,
  COALESCE(a1, ARRAY[7, 8]) AS a_coalesce,
  IFNULL(m1, m2) AS m_ifnull,
  IF(n > 2, s1, s2) AS s_if,
  NULLIF(a1, ARRAY[1, 2]) AS a_nullif,
  CASE WHEN n > 3 THEN r1 ELSE CAST(NULL AS ROW<id BIGINT, s STRING>) END AS r_case
FROM pairs;
-- nested inside nested, and a branch that can fail evaluated only for its rows
SELECT n,
  IF(n = 5, ARRAY[ROW(n, 'five')], ARRAY[ROW(10 / (n - 5), 'x'), ROW(n, 'y')]) AS rows_arr,
  CASE WHEN a1 IS NULL THEN MAP['none', ARRAY[0]] ELSE MAP['first', ARRAY[a1[1], CARDINALITY(a1)]] END AS m_of_a,
  TYPEOF(COALESCE(s1, s2)) AS t
FROM pairs;
-- a nested result feeds other expressions
SELECT n, CARDINALITY(COALESCE(a1, ARRAY[0])) AS card, (CASE WHEN n > 1 THEN r1 ELSE NULL END).s AS s
FROM pairs WHERE COALESCE(m1, m2)['x'] IS NOT NULL;
