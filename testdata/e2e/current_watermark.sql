-- CURRENT_WATERMARK(rowtime): "Returns the current watermark for the given
-- rowtime attribute, or NULL if no common watermark of all upstream
-- operations is available at the current operation in the pipeline. ...
-- if you want to filter out late data you can use:
--   WHERE CURRENT_WATERMARK(ts) IS NULL OR ts > CURRENT_WATERMARK(ts)"
-- (Flink's sql_functions.yml). Each row sees the watermark it arrived
-- under: the latest ts before it minus the 2 seconds of delay, NULL for
-- the first row; the same at every batch size.
CREATE TABLE events (
  ts TIMESTAMP(3), name STRING, v INT,
  WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/current_watermark.csv', 'format' = 'csv');

SELECT name, ts, CURRENT_WATERMARK(ts) AS wm FROM events;

-- Flink's example: late rows (c, e, f: not after the watermark) dropped
SELECT name, ts FROM events WHERE CURRENT_WATERMARK(ts) IS NULL OR ts > CURRENT_WATERMARK(ts);

-- inside CASE, over the rows of a branch only
SELECT name, CASE WHEN v > 3 THEN CAST(CURRENT_WATERMARK(ts) AS STRING) ELSE 'early' END AS wm_if_late FROM events;

-- in an aggregate's argument: the late rows of each window
SELECT window_start, COUNT(*) AS n, SUM(CASE WHEN ts <= CURRENT_WATERMARK(ts) THEN 1 ELSE 0 END) AS late
FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY window_start, window_end;

-- a TIMESTAMP_LTZ rowtime gives a TIMESTAMP_LTZ(3)
CREATE TABLE ltz_events (
  ts TIMESTAMP(3), name STRING, v INT,
  lts AS CAST(ts AS TIMESTAMP_LTZ(3)),
  WATERMARK FOR lts AS lts - INTERVAL '2' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/current_watermark.csv', 'format' = 'csv');
SELECT name, CURRENT_WATERMARK(lts) AS wm, TYPEOF(CURRENT_WATERMARK(lts)) AS t FROM ltz_events WHERE v < 3;
