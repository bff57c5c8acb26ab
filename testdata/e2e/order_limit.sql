-- LIMIT on an append-only query stops reading at the row that completes
-- it: the summary counts the rows read up to there, whatever the batch
-- size. FETCH FIRST n ROWS ONLY is the same; LIMIT 0 reads nothing.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  usr STRING,
  amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');

SELECT * FROM clicks LIMIT 3;
SELECT usr, amount FROM clicks WHERE amount > 40 FETCH FIRST 2 ROWS ONLY;
SELECT * FROM clicks LIMIT 0;
SELECT * FROM (SELECT usr, amount FROM clicks WHERE usr = 'bob' LIMIT 4) WHERE amount > 20 LIMIT 3;
WITH big AS (SELECT usr, amount * 2 AS twice FROM clicks WHERE amount > 45) SELECT * FROM big LIMIT 5;

-- ORDER BY the time attribute: rows come out in time order (then by the
-- other keys) as the watermark passes them; the two rows that arrive
-- behind the watermark are late and dropped, as in Flink.
SELECT ts, usr, amount FROM clicks WHERE usr = 'bob' ORDER BY ts;
SELECT usr, ts, amount FROM clicks WHERE amount > 30 ORDER BY ts, amount DESC;

-- a window's rowtime is a time attribute: windows sorted by it, keys
-- descending within a window; the windows of the last LIMIT rows close
-- only at the end of the input
SELECT usr, TUMBLE_ROWTIME(ts, INTERVAL '1' MINUTE) AS rt, COUNT(*) AS n
FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE) ORDER BY rt, usr DESC;
SELECT window_time, usr, SUM(amount) AS total
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '2' MINUTE))
GROUP BY window_start, window_end, window_time, usr ORDER BY 1, 2 LIMIT 4;
