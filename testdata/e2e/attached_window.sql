-- A GROUP BY over the rows of a window aggregation that holds both their
-- window_start and window_end, under any names, is a window aggregation
-- over the windows the rows come with (Flink's attached window): one
-- result per window, once the watermark passes its end, insert-only.
-- Nexmark q5's "hot items" per user: the busiest users of each window.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  usr STRING,
  amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');

CREATE VIEW per_user AS
SELECT usr, COUNT(*) AS n, window_start AS starttime, window_end AS endtime
FROM TABLE(HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '30' SECOND, INTERVAL '1' MINUTE))
GROUP BY usr, window_start, window_end;

-- the busiest count of each window: an attached window aggregation, and
-- the join on both bounds a window join, so the result is insert-only
SELECT p.usr, p.n, p.starttime, p.endtime
FROM per_user AS p
JOIN (
  SELECT MAX(n) AS maxn, starttime, endtime FROM per_user GROUP BY starttime, endtime
) AS m ON p.starttime = m.starttime AND p.endtime = m.endtime AND p.n >= m.maxn;

EXPLAIN SELECT MAX(n) AS maxn, starttime, endtime FROM per_user GROUP BY starttime, endtime;

-- the same rows as one aggregation of the clicks per window
SELECT starttime, endtime, SUM(n) AS n, COUNT(*) AS users FROM per_user GROUP BY endtime, starttime;
SELECT window_start, window_end, COUNT(*) AS n, COUNT(DISTINCT usr) AS users
FROM TABLE(HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '30' SECOND, INTERVAL '1' MINUTE))
GROUP BY window_start, window_end;

-- a HOP whose size is not a multiple of its slide, with a key that is an
-- expression and HAVING; and a CUMULATE window
SELECT CHAR_LENGTH(usr) > 3 AS long_name, s, e, SUM(n) AS n
FROM (
  SELECT usr, COUNT(*) AS n, window_start AS s, window_end AS e
  FROM TABLE(HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '20' SECOND, INTERVAL '50' SECOND))
  GROUP BY usr, window_start, window_end
) GROUP BY s, CHAR_LENGTH(usr) > 3, e HAVING SUM(n) > 1;
SELECT window_start, window_end, COUNT(*) AS n
FROM TABLE(HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '20' SECOND, INTERVAL '50' SECOND))
GROUP BY window_start, window_end;
SELECT s, e, SUM(n) AS n
FROM (
  SELECT usr, COUNT(*) AS n, window_start AS s, window_end AS e
  FROM TABLE(CUMULATE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '20' SECOND, INTERVAL '1' MINUTE))
  GROUP BY usr, window_start, window_end
) GROUP BY s, e;

-- over a window table function's own rows
SELECT window_start, window_end, COUNT(*) AS n
FROM (SELECT usr, window_start, window_end FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE)))
GROUP BY window_start, window_end;
