-- Cascading window aggregations on window_time (Flink's "Cascading
-- Window Aggregation"): the window_time of an inner window aggregation is
-- its result's time attribute, and the watermark the inner aggregation
-- forwards drives the outer windows. Per user and 30 seconds, then per
-- minute: the same rows as one aggregation per minute.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  usr STRING,
  amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');

CREATE VIEW per_user AS
SELECT usr, window_start AS w_start, window_end AS w_end, window_time AS rowtime,
       COUNT(*) AS n, MAX(amount) AS top
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '30' SECOND))
GROUP BY usr, window_start, window_end, window_time;

SELECT window_start, window_end, window_time, SUM(n) AS n, MAX(top) AS top, COUNT(*) AS user_windows
FROM TABLE(TUMBLE(TABLE per_user, DESCRIPTOR(rowtime), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end, window_time;

SELECT window_start, window_end, COUNT(*) AS n, MAX(amount) AS top
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end;

-- per user again, over a HOP, in a WITH query
WITH per_user_hop AS (
  SELECT usr, window_time AS rowtime, COUNT(*) AS n
  FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '30' SECOND))
  GROUP BY usr, window_start, window_end, window_time
)
SELECT usr, window_start, window_end, SUM(n) AS n
FROM TABLE(HOP(TABLE per_user_hop, DESCRIPTOR(rowtime), INTERVAL '1' MINUTE, INTERVAL '2' MINUTE))
GROUP BY usr, window_start, window_end;

-- a window table function over a group window's TUMBLE_ROWTIME, and a
-- group window over a window table function's window_time
CREATE VIEW legacy AS
SELECT usr, TUMBLE_ROWTIME(ts, INTERVAL '30' SECOND) AS rt, COUNT(*) AS n
FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '30' SECOND);
SELECT window_start, SUM(n) AS n
FROM TABLE(TUMBLE(TABLE legacy, DESCRIPTOR(rt), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end;
SELECT TUMBLE_START(rowtime, INTERVAL '1' MINUTE) AS s, SUM(n) AS n
FROM per_user GROUP BY TUMBLE(rowtime, INTERVAL '1' MINUTE);

-- the inner window's start and end are plain timestamps in the outer query
SELECT w_start, window_start, n FROM TABLE(TUMBLE(TABLE per_user, DESCRIPTOR(rowtime), INTERVAL '1' MINUTE)) WHERE n > 3;

EXPLAIN SELECT window_start, window_end, SUM(n) AS n
FROM TABLE(TUMBLE(TABLE per_user, DESCRIPTOR(rowtime), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end;
