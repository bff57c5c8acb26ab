-- A GROUP BY over an update stream retracts: +I and +U rows are folded
-- in, -U and -D rows taken out. A key whose last row is taken out emits
-- -D, as Flink's recordCounter; MIN and MAX keep every value with its
-- count, so taking out the extreme finds the next one.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
CREATE VIEW counts AS SELECT k, COUNT(*) AS n FROM events GROUP BY k;
-- how many keys have each count
SELECT n, COUNT(*) AS keys FROM counts GROUP BY n;

-- one global row over the counts; COUNT(DISTINCT) keeps each value's count
SELECT COUNT(*) AS keys, SUM(n) AS total, MAX(n) AS top, MIN(k) AS first_key, AVG(n) AS mean,
       COUNT(DISTINCT n) AS sizes FROM counts;

-- over a Top-N, whose rows leave with -D
CREATE VIEW top2 AS SELECT k, v FROM (
  SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM events
) WHERE rn <= 2;
SELECT k, SUM(v) AS top2_sum FROM top2 GROUP BY k;
