-- A general watermark expression: the watermark is the maximum of the
-- expression over the rows so far. Here bob's clicks are trusted less (they
-- may be a minute late), everyone else's 5 seconds: rows of others still
-- advance time, so the stragglers of the example are late only if the
-- watermark computed from all rows before them passed their window.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  usr STRING,
  amount DOUBLE,
  WATERMARK FOR ts AS CASE WHEN usr = 'bob' THEN ts - INTERVAL '1' MINUTE ELSE ts - INTERVAL '5' SECOND END
) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');
SELECT usr, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS s, COUNT(*) AS n
FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
EXPLAIN SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
