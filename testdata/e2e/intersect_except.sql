-- INTERSECT and EXCEPT, as Flink plans them: the rows of both queries
-- counted per distinct row and side; an update stream whose rows come
-- (+I) and go (-D) as the counts change. The rows of the two queries
-- arrive in the order of their watermarks (as UNION ALL's do). NULLs are
-- equal to each other here, as in every set operation.
CREATE TABLE shop (ts TIMESTAMP(3), usr STRING, item STRING, WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/intersect_except_shop.csv', 'format' = 'csv');
CREATE TABLE web (ts TIMESTAMP(3), usr STRING, item STRING, WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/intersect_except_web.csv', 'format' = 'csv');

-- a row both queries have, once
SELECT usr, item FROM shop INTERSECT SELECT usr, item FROM web;

-- min(l, r) copies of each row
SELECT usr, item FROM shop INTERSECT ALL SELECT usr, item FROM web;

-- a row of the left query the right one does not have: deleted when the
-- right query brings it
SELECT usr, item FROM shop EXCEPT SELECT usr, item FROM web;

-- max(l - r, 0) copies of each row
SELECT usr, item FROM shop EXCEPT ALL SELECT usr, item FROM web;

-- Parentheses group a set operation; the columns take the common type of
-- the queries' columns and the first query's names.
SELECT usr AS who FROM (SELECT usr FROM shop UNION ALL SELECT CAST(usr AS VARCHAR(10)) FROM web WHERE item = 'socks')
EXCEPT ALL SELECT usr FROM web WHERE item = 'hats';

EXPLAIN SELECT usr, item FROM shop INTERSECT ALL SELECT usr, item FROM web;
