-- wsql's COUNT_WINDOW: every 4 clicks of a user form a window; sliding, the
-- last 4 clicks every 2. Rows of windows that never fill are counted in the
-- summary, not emitted (as Flink's count windows never fire on their own).
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  usr STRING,
  amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');
SELECT usr, COUNT(*) AS n, SUM(amount) AS total FROM clicks GROUP BY usr, COUNT_WINDOW(4);
SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr, COUNT_WINDOW(4, 2);
EXPLAIN SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr, COUNT_WINDOW(4, 2);
