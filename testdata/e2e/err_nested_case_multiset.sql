-- a MAP<STRING, INT> and a MULTISET<STRING> are stored alike but are not
-- one type: IF over both is refused at the second result.
CREATE TABLE pairs (n INT, m1 MAP<STRING, INT>, s1 MULTISET<STRING>)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/nested_pairs.jsonl', 'format' = 'json');
SELECT IF(n > 2, m1, s1) AS x FROM pairs;
