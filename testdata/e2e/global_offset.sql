-- A window without keys, with an offset: windows start at 1 s past each 10 s.
CREATE TABLE events (
  ts TIMESTAMP(3),
  k STRING,
  v INT,
  w BIGINT,
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');

SELECT TUMBLE_START(ts, INTERVAL '10' SECOND, INTERVAL '1' SECOND) AS s, COUNT(*) AS n, SUM(w) AS total
FROM events
GROUP BY TUMBLE(ts, INTERVAL '10' SECOND, INTERVAL '1' SECOND);
