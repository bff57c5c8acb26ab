-- Clicks per user per minute. Run from the repository root:
--   go run ./cmd/wsql run testdata/examples/clicks.sql
-- The watermark trails the largest event time by 5 seconds, so a click that
-- arrives more than 5 seconds after its minute closed is late: it is dropped
-- and counted in the summary on stderr.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  usr STRING,
  amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');

SELECT usr,
       TUMBLE_START(ts, INTERVAL '1' MINUTE) AS wstart,
       TUMBLE_END(ts, INTERVAL '1' MINUTE) AS wend,
       COUNT(*) AS n, SUM(amount) AS total
FROM clicks
GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
