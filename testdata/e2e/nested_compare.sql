-- =, <>, IS [NOT] DISTINCT FROM and IN over ROW, ARRAY, MAP and MULTISET
-- values, as Flink compares them: NULL when either value is NULL; else
-- equal when equal field by field and element by element (a NULL field or
-- element equals a NULL one, as Flink's binary rows and arrays compare),
-- a MAP's entries in any order.
CREATE TABLE pairs (
  n INT,
  r1 ROW<id BIGINT, s STRING>, r2 ROW<id INT, s STRING>,
  a1 ARRAY<INT>, a2 ARRAY<BIGINT>,
  m1 MAP<STRING, INT>, m2 MAP<STRING, INT>,
  s1 MULTISET<STRING>, s2 MULTISET<STRING>
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/nested_pairs.jsonl', 'format' = 'json');
SELECT n, r1 = r2 AS r_eq, r1 <> r2 AS r_ne, a1 = a2 AS a_eq, m1 = m2 AS m_eq, s1 = s2 AS s_eq,
  r1 IS NOT DISTINCT FROM r2 AS r_nd, a1 IS DISTINCT FROM a2 AS a_d, m1 IS NOT DISTINCT FROM m2 AS m_nd
FROM pairs;
SELECT n FROM pairs WHERE a1 IN (a2, ARRAY_REVERSE(a2));
SELECT n FROM pairs WHERE r1 NOT IN (r2);
-- against constructed values: Flink's ARRAY[1, NULL] = ARRAY[1, NULL] is
-- TRUE (its binary arrays are equal), and integer widths may differ
SELECT n, a1 = ARRAY[1, 2] AS a12, r1 = ROW(1, 'a') AS r1a, m1 = MAP['y', 2, 'x', 1] AS m_yx,
  a1 IN (ARRAY[1, 2], ARRAY[1, CAST(NULL AS INT)]) AS a_in,
  ARRAY[1, NULL] = ARRAY[1, NULL] AS null_elems, ROW(1, 'a') <> ROW(1, 'b') AS rows_differ
FROM pairs;
