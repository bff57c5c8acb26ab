-- A ROW_NUMBER() in the query of the window aggregation itself is not
-- built yet; the message shows the form that works.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT * FROM (SELECT window_start, k, COUNT(*) AS n, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY COUNT(*) DESC) AS rn FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, k) WHERE rn <= 1;
