-- HOP (slide first), CUMULATE and SESSION through both syntaxes.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  usr STRING,
  amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');

-- one-minute windows every 30 seconds
SELECT usr, HOP_START(ts, INTERVAL '30' SECOND, INTERVAL '1' MINUTE) AS s,
       HOP_END(ts, INTERVAL '30' SECOND, INTERVAL '1' MINUTE) AS e, COUNT(*) AS n
FROM clicks GROUP BY usr, HOP(ts, INTERVAL '30' SECOND, INTERVAL '1' MINUTE);

SELECT window_start, window_end, COUNT(*) AS n, SUM(amount) AS total
FROM TABLE(CUMULATE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '3' MINUTE))
GROUP BY window_start, window_end;

-- sessions per user that end after 20 seconds without a click
SELECT usr, SESSION_START(ts, INTERVAL '20' SECOND) AS s, SESSION_END(ts, INTERVAL '20' SECOND) AS e,
       SESSION_ROWTIME(ts, INTERVAL '20' SECOND) AS rt, COUNT(*) AS n
FROM clicks GROUP BY usr, SESSION(ts, INTERVAL '20' SECOND);

-- CUMULATE as a group window, with its properties (as TUMBLE_START ...)
SELECT CUMULATE_START(ts, INTERVAL '1' MINUTE, INTERVAL '3' MINUTE) AS s,
       CUMULATE_END(ts, INTERVAL '1' MINUTE, INTERVAL '3' MINUTE) AS e,
       CUMULATE_ROWTIME(ts, INTERVAL '1' MINUTE, INTERVAL '3' MINUTE) AS rt, COUNT(*) AS n
FROM clicks GROUP BY CUMULATE(ts, INTERVAL '1' MINUTE, INTERVAL '3' MINUTE);
