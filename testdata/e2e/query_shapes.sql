-- WHERE before the window (filtered rows still advance the watermark), HAVING
-- after it, and expressions over keys, window properties and aggregates.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  usr STRING,
  amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');

SELECT UPPER(usr) AS who,
       DATE_FORMAT(TUMBLE_START(ts, INTERVAL '1' MINUTE), 'HH:mm') AS minute,
       COUNT(*) AS n,
       ROUND(SUM(amount), 1) AS total,
       ROUND(AVG(amount), 2) AS mean,
       MAX(amount) - MIN(amount) AS spread,
       CASE WHEN SUM(amount) > 150 THEN 'big' ELSE 'small' END AS size
FROM clicks
WHERE amount >= 5 AND usr <> 'nobody'
GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)
HAVING COUNT(*) >= 2;

-- a global window with LISTAGG and FIRST/LAST-independent aggregates
SELECT TUMBLE_END(ts, INTERVAL '2' MINUTE) AS wend, COUNT(DISTINCT usr) AS users,
       LISTAGG(usr, '|') AS who, STDDEV_POP(amount) > 0 AS varies
FROM clicks GROUP BY TUMBLE(ts, INTERVAL '2' MINUTE);

-- a plain streaming SELECT: filter and project, row by row
SELECT ts, usr, amount * 2 AS doubled, EXTRACT(SECOND FROM ts) AS sec,
       CAST(amount AS INT) AS whole, usr LIKE 'a%' AS is_a
FROM clicks
WHERE amount BETWEEN 40 AND 50 OR usr IN ('nobody');

EXPLAIN SELECT usr, COUNT(*) * 10 AS n10 FROM clicks WHERE amount > 10
GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE) HAVING SUM(amount) > 100;

-- aggregates over expressions: computed per row after WHERE
SELECT usr, SUM(amount * 2) AS doubled, COUNT(DISTINCT CAST(amount AS INT) / 10) AS tens,
       AVG(CASE WHEN amount > 20 THEN 1.0 ELSE 0.0 END) AS share_big
FROM clicks WHERE amount > 1
GROUP BY usr, TUMBLE(ts, INTERVAL '3' MINUTE);
EXPLAIN SELECT usr, SUM(amount * 2) AS doubled FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '3' MINUTE);

-- GROUP BY expressions and constants, computed per row before the window
SELECT UPPER(usr), amount > 25 AS big, COUNT(*) AS n
FROM clicks GROUP BY UPPER(usr), amount > 25, 'all', TUMBLE(ts, INTERVAL '3' MINUTE);

-- FIRST_VALUE and LAST_VALUE by arrival order, across HOP panes
SELECT usr, HOP_END(ts, INTERVAL '1' MINUTE, INTERVAL '2' MINUTE) AS e,
       FIRST_VALUE(amount) AS first_amount, LAST_VALUE(amount) AS last_amount,
       YEAR(ts) AS y
FROM clicks GROUP BY usr, YEAR(ts), HOP(ts, INTERVAL '1' MINUTE, INTERVAL '2' MINUTE);
