-- An ARRAY does not CAST to a MAP: nested types convert only within one
-- kind, as in Flink.
CREATE TABLE pairs (n INT, a1 ARRAY<INT>)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/nested_pairs.jsonl', 'format' = 'json');
SELECT CAST(a1 AS MAP<STRING, INT>) AS m FROM pairs;
