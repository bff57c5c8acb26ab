-- An ARRAY<INT> does not CAST to an ARRAY<DATE>: its elements would not,
-- and the error names them.
CREATE TABLE pairs (n INT, a1 ARRAY<INT>)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/nested_pairs.jsonl', 'format' = 'json');
SELECT CAST(a1 AS ARRAY<DATE>) AS d FROM pairs;
