-- The SESSION window table function (Flink 1.19+): with PARTITION BY k
-- the sessions are found per k, and GROUP BY window_start, window_end, k
-- gives the rows of GROUP BY k, SESSION(ts, gap); without PARTITION BY
-- the sessions span all rows, as GROUP BY SESSION(ts, gap).
CREATE TABLE events (
  ts TIMESTAMP(3),
  k STRING,
  v INT,
  w BIGINT,
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');

SELECT k, window_start, window_end, window_time, COUNT(*) AS n, SUM(v) AS sv
FROM TABLE(SESSION(TABLE events PARTITION BY k, DESCRIPTOR(ts), INTERVAL '3' SECOND))
GROUP BY k, window_start, window_end;

SELECT k, SESSION_START(ts, INTERVAL '3' SECOND) AS s, SESSION_END(ts, INTERVAL '3' SECOND) AS e,
       SESSION_ROWTIME(ts, INTERVAL '3' SECOND) AS rt, COUNT(*) AS n, SUM(v) AS sv
FROM events GROUP BY k, SESSION(ts, INTERVAL '3' SECOND);

SELECT window_start, window_end, COUNT(*) AS n, MAX(v) AS hi
FROM TABLE(SESSION(TABLE events, DESCRIPTOR(ts), INTERVAL '3' SECOND))
GROUP BY window_start, window_end;

-- named arguments, PARTITION BY a list, WHERE and HAVING
SELECT window_start, k, v, COUNT(*) AS n
FROM TABLE(SESSION(DATA => TABLE events PARTITION BY (k, v), TIMECOL => DESCRIPTOR(ts), GAP => INTERVAL '10' SECOND))
WHERE w IS NOT NULL
GROUP BY window_start, window_end, v, k
HAVING COUNT(*) >= 1;

-- sessions of sessions: window_time is the result's time attribute
CREATE VIEW sessions AS
SELECT k, window_time, COUNT(*) AS n
FROM TABLE(SESSION(TABLE events PARTITION BY k, DESCRIPTOR(ts), INTERVAL '3' SECOND))
GROUP BY k, window_start, window_end, window_time;
SELECT window_start, window_end, COUNT(*) AS sessions, SUM(n) AS n
FROM TABLE(TUMBLE(TABLE sessions, DESCRIPTOR(window_time), INTERVAL '10' SECOND))
GROUP BY window_start, window_end;

EXPLAIN SELECT k, window_start, COUNT(*) AS n
FROM TABLE(SESSION(TABLE events PARTITION BY k, DESCRIPTOR(ts), INTERVAL '3' SECOND))
GROUP BY k, window_start, window_end;
