-- Top-N, Flink's ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) with a
-- bound on the row number in the outer WHERE: an update stream. With the
-- rank in the result each rank whose row changed emits -U and +U; NULL
-- sorts last descending.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT k, v, rn FROM (
  SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM events
) WHERE rn <= 2;

-- Without the rank in the result: the row pushed out (-D) and the row
-- that enters (+I). A condition besides the bound filters the ranked rows.
SELECT k, v, w FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM events
) WHERE rn <= 2 AND w > 20;

-- A rank range that does not start at 1, one partition for all rows.
SELECT * FROM (
  SELECT k, w, ROW_NUMBER() OVER (ORDER BY w) AS pos FROM events WHERE w IS NOT NULL
) WHERE pos BETWEEN 2 AND 3;

-- A * after other items keeps every column once.
SELECT * FROM (
  SELECT v AS vv, *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM events
) WHERE rn <= 1 AND k = 'c';

EXPLAIN SELECT k, v, rn FROM (
  SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM events
) WHERE rn <= 2;

-- Without the rank in the result the changes are deletes and inserts.
EXPLAIN SELECT k, v, w FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM events
) WHERE rn <= 2 AND w > 20;
