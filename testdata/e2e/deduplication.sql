-- Deduplication: ROW_NUMBER() = 1 ordered by a time attribute alone, the
-- rank not in the result. By the rowtime ascending, each key's row of the
-- smallest time is emitted once the watermark reaches it (append-only);
-- rows that come after the watermark passed them are late, dropped and
-- counted. Descending, the last row by time, an update stream.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, p AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT k, ts, v FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) AS rn FROM events
) WHERE rn = 1;

SELECT k, ts, v FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts DESC) AS rn FROM events
) WHERE rn = 1;

-- By processing time: the first row to arrive (append-only), the last
-- (an update stream).
SELECT k, v FROM (
  SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY p) AS rn FROM events
) WHERE rn <= 1;

SELECT k, v FROM (
  SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY p DESC) AS rn FROM events
) WHERE rn = 1;

EXPLAIN SELECT k, ts, v FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) AS rn FROM events
) WHERE rn = 1;

-- A PROCTIME() of a view orders by arrival too.
CREATE VIEW ev AS SELECT k, v, PROCTIME() AS pt FROM events;
SELECT k, v FROM (
  SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY pt DESC) AS rn FROM ev
) WHERE rn = 1;
