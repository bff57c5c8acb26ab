-- A window table function without an aggregation (Flink's
-- WindowTableFunction): every row once per window it belongs to, with
-- window_start, window_end and window_time (window_end - 1 ms) appended,
-- emitted as it arrives. Late rows come out too: nothing waits for the
-- watermark. HOP gives a row's windows by decreasing start, CUMULATE by
-- increasing end, as Flink's assigners.
CREATE TABLE events (
  ts TIMESTAMP(3),
  k STRING,
  v INT,
  w BIGINT,
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');

SELECT * FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECONDS));

SELECT k, v, window_start, window_end
FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECONDS, INTERVAL '10' SECONDS))
WHERE v > 4;

SELECT v, window_start, window_end, window_time
FROM TABLE(CUMULATE(DATA => TABLE events, TIMECOL => DESCRIPTOR(ts), STEP => INTERVAL '5' SECONDS, SIZE => INTERVAL '15' SECONDS, OFFSET => INTERVAL '1' SECOND))
WHERE k = 'a';

-- filters and expressions over the window columns, through an alias
SELECT x.k, x.v * 10 AS v10, CAST(x.window_start AS STRING) AS s
FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '10' SECONDS)) AS x
WHERE x.window_start >= TIMESTAMP '1970-01-01 00:00:00' AND x.v IS NOT NULL;

-- window_time is the rows' time attribute: a window over a view of them
CREATE VIEW tumbled AS
SELECT k, v, window_time FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECONDS));
SELECT window_start, window_end, COUNT(*) AS n, SUM(v) AS sv
FROM TABLE(TUMBLE(TABLE tumbled, DESCRIPTOR(window_time), INTERVAL '10' SECONDS))
GROUP BY window_start, window_end;

EXPLAIN SELECT k, window_time FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECONDS, INTERVAL '10' SECONDS)) WHERE v > 4;
