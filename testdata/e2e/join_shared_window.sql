-- A self-join over one windowed sub-plan, as Nexmark q5: both sides count
-- the rows per user and HOP window, the right side takes the largest count
-- per window. The count runs once and feeds both sides (Flink's sub-plan
-- reuse, which EXPLAIN shows): the summary counts the rows of web once.
-- (The legacy form, a regular join over a GROUP BY, is Nexmark q5 in
-- TestNexmarkSuite.)
CREATE TABLE web (ts TIMESTAMP(3), usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '10' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/union_web.csv', 'format' = 'csv');
EXPLAIN SELECT A.usr, A.num, A.starttime FROM (
  SELECT usr, COUNT(*) AS num, window_start AS starttime, window_end AS endtime
  FROM TABLE(HOP(TABLE web, DESCRIPTOR(ts), INTERVAL '30' SECOND, INTERVAL '60' SECOND))
  GROUP BY usr, window_start, window_end) AS A
JOIN (
  SELECT MAX(C.num) AS maxn, C.starttime, C.endtime FROM (
    SELECT COUNT(*) AS num, window_start AS starttime, window_end AS endtime
    FROM TABLE(HOP(TABLE web, DESCRIPTOR(ts), INTERVAL '30' SECOND, INTERVAL '60' SECOND))
    GROUP BY usr, window_start, window_end) AS C
  GROUP BY C.starttime, C.endtime) AS M
ON A.starttime = M.starttime AND A.endtime = M.endtime AND A.num >= M.maxn;
SELECT A.usr, A.num, A.starttime FROM (
  SELECT usr, COUNT(*) AS num, window_start AS starttime, window_end AS endtime
  FROM TABLE(HOP(TABLE web, DESCRIPTOR(ts), INTERVAL '30' SECOND, INTERVAL '60' SECOND))
  GROUP BY usr, window_start, window_end) AS A
JOIN (
  SELECT MAX(C.num) AS maxn, C.starttime, C.endtime FROM (
    SELECT COUNT(*) AS num, window_start AS starttime, window_end AS endtime
    FROM TABLE(HOP(TABLE web, DESCRIPTOR(ts), INTERVAL '30' SECOND, INTERVAL '60' SECOND))
    GROUP BY usr, window_start, window_end) AS C
  GROUP BY C.starttime, C.endtime) AS M
ON A.starttime = M.starttime AND A.endtime = M.endtime AND A.num >= M.maxn;
