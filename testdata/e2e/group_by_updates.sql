-- GROUP BY without a window is an update stream, Flink's GroupAggregate:
-- each row emits +I for a new key, or -U with the values emitted last and
-- +U with the new ones. a's fourth row has a NULL v: SUM, MIN and
-- LISTAGG skip it, COUNT(*) and AVG(w) move.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
CREATE TABLE out_print (k STRING, n BIGINT, total INT, top BIGINT, lo INT, mean BIGINT, vs STRING, big BIGINT)
  WITH ('connector' = 'print', 'print-identifier' = 'agg');
INSERT INTO out_print
SELECT k, COUNT(*), SUM(v), MAX(w), MIN(v), AVG(w), LISTAGG(CAST(v AS STRING)), COUNT(*) FILTER (WHERE w >= 50)
FROM events GROUP BY k;

-- A row that changes nothing emits nothing: MIN(w) per key stays 10 for
-- a's later rows, and 50 for b's 60.
SELECT k, MIN(w) AS lo FROM events GROUP BY k;

-- Without GROUP BY, one global group.
SELECT COUNT(*) AS n, SUM(w) AS total FROM events WHERE v > 2;

-- GROUP BY an expression, and COUNT(DISTINCT ...).
SELECT MOD(v, 2) AS parity, COUNT(DISTINCT k) AS keys FROM events GROUP BY MOD(v, 2);

-- HAVING filters the changes: -U and +U rows alike, by their own values,
-- so a key whose old values did not pass shows +U without -U, as in Flink.
SELECT k, COUNT(*) AS n FROM events GROUP BY k HAVING COUNT(*) >= 3;

-- SELECT DISTINCT is a GROUP BY of the select list without aggregates:
-- +I for each new row of values.
SELECT DISTINCT k, v > 4 AS big FROM events;

-- A filter and a projection over an update stream keep each change's
-- row kind; the filter reads the values of the -U and +U rows alike.
CREATE VIEW counts AS SELECT k, COUNT(*) AS n FROM events GROUP BY k;
SELECT k, n * 10 AS n10 FROM counts WHERE n > 1;

EXPLAIN SELECT k, COUNT(*) AS n FROM events GROUP BY k;
