-- CAST between nested types needs one kind and convertible elements: a
-- ROW of 2 fields does not become one of 3 (err_nested_cast_kind: nor an
-- ARRAY a MAP, nor an INT element a DATE); the error points at the CAST.
CREATE TABLE pairs (n INT, r1 ROW<id INT, s STRING>, a1 ARRAY<INT>)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/nested_pairs.jsonl', 'format' = 'json');
SELECT CAST(r1 AS ROW<a INT, b STRING, c INT>) AS r FROM pairs;
