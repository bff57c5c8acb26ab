-- A window Top-N over processing-time windows is not built yet.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY n DESC) AS rn FROM (SELECT window_start, window_end, k, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(pt), INTERVAL '1' SECOND)) GROUP BY window_start, window_end, k)) WHERE rn <= 1;
