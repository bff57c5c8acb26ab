-- GROUPING SETS, ROLLUP and CUBE without a window (Flink's Group
-- Aggregation, "GROUPING SETS"): one GroupAggregate over an Expand that
-- copies each row once per grouping set, its keys outside the set NULL.
-- The result is an update stream: per set, +I for a new key, -U/+U when
-- its values change. Each row's copies come in the order of the sets.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');

-- GROUPING SETS with the empty set (the grand total); GROUPING(k) is 1
-- on the total's rows, GROUPING_ID(k, big) has a bit per argument.
SELECT k, v > 4 AS big, GROUPING(k) AS gk, GROUPING_ID(k, v > 4) AS gid, COUNT(*) AS n, SUM(w) AS total
FROM events GROUP BY GROUPING SETS ((k, v > 4), (k), ());

-- ROLLUP (k, big) is GROUPING SETS ((k, big), (k), ()); a NULL key (b's
-- v is NULL in one row) is a group of its own, told apart from a rolled-up
-- NULL by GROUPING.
SELECT k, v > 4 AS big, GROUPING(v > 4) AS rolled, MAX(v) AS top FROM events GROUP BY ROLLUP (k, v > 4);

-- CUBE (k, big): every subset, (k, big), (k), (big), ().
SELECT k, v > 4 AS big, COUNT(*) AS n FROM events GROUP BY CUBE (k, v > 4);

-- A plain key is in every set: GROUP BY k, ROLLUP(big) is the cross
-- product, GROUPING SETS ((k, big), (k)). HAVING reads GROUPING.
SELECT k, v > 4 AS big, COUNT(*) AS n FROM events GROUP BY k, ROLLUP (v > 4) HAVING GROUPING(v > 4) = 1;

-- A set listed twice counts twice, told apart by GROUP_ID().
SELECT k, GROUP_ID() AS g, COUNT(*) AS n FROM events GROUP BY GROUPING SETS ((k), (k));

-- GROUPING in a plain GROUP BY is 0.
SELECT k, GROUPING(k) AS g FROM events WHERE k = 'c' GROUP BY k;

-- The keys of the sets become nullable in the result's types.
CREATE VIEW totals AS SELECT k, COUNT(*) AS n FROM events GROUP BY ROLLUP (k);
DESCRIBE totals;
SHOW CREATE VIEW totals;
-- a filter over the view keeps each change's row kind: the total's changes
SELECT n FROM totals WHERE k IS NULL AND n > 7;

-- Over an update stream the aggregation retracts: each change of per_k
-- (-U, +U, -D) is copied per set too, so the total (n NULL) counts the keys.
CREATE VIEW per_k AS SELECT k, COUNT(*) AS n FROM events GROUP BY k;
SELECT n, GROUPING(n) AS total, COUNT(*) AS keys FROM per_k GROUP BY ROLLUP (n);

-- Into the print sink, as Flink's: +I, -U, +U.
CREATE TABLE out_print (k STRING, n BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'rollup');
INSERT INTO out_print SELECT k, COUNT(*) FROM events WHERE v > 4 GROUP BY ROLLUP (k);

EXPLAIN SELECT k, v > 4 AS big, GROUPING(k) AS gk, COUNT(*) AS n FROM events GROUP BY CUBE (k, v > 4);
