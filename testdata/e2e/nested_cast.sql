-- CAST between nested types of one kind converts each field, element,
-- key and value as CAST converts a scalar (Flink's RowToRowCastRule,
-- ArrayToArrayCastRule, MapToMapAndMultisetToMultisetCastRule): a ROW
-- takes the target's field names, NULL rows and elements stay NULL, and
-- TRY_CAST makes an element NULL where it does not convert. COALESCE,
-- CASE and IF over ARRAY<INT> and ARRAY<BIGINT> meet in ARRAY<BIGINT>,
-- as Flink's common type of two collections is element by element.
CREATE TABLE pairs (
  n INT, r1 ROW<id INT, s STRING>, a1 ARRAY<INT>, a2 ARRAY<BIGINT>, m1 MAP<STRING, INT>, s1 MULTISET<STRING>
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/nested_pairs.jsonl', 'format' = 'json');

SELECT n, CAST(r1 AS ROW<key BIGINT, label STRING>) AS r, CAST(a1 AS ARRAY<DOUBLE>) AS a,
       CAST(a1 AS ARRAY<STRING>) AS texts, CAST(m1 AS MAP<STRING, DECIMAL(5, 1)>) AS m,
       CAST(s1 AS MULTISET<STRING>) AS s
FROM pairs;

SELECT n, TRY_CAST(ARRAY['1', 'x', CAST(n AS STRING)] AS ARRAY<INT>) AS parsed,
       CAST(ARRAY[a1, a1] AS ARRAY<ARRAY<BIGINT>>) AS nested,
       COALESCE(a1, a2) AS either, IF(n > 2, a2, a1) AS chosen,
       CASE WHEN n = 1 THEN a1 WHEN n = 2 THEN a2 END AS picked
FROM pairs;

CREATE VIEW widened AS SELECT COALESCE(a1, a2) AS either, CAST(r1 AS ROW<key BIGINT, label STRING>) AS r FROM pairs;
DESCRIBE widened;
