-- A scalar subquery's join gives an update stream, which ORDER BY and
-- LIMIT do not take.
CREATE TABLE orders (ts TIMESTAMP(3), id STRING, usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_orders.csv', 'format' = 'csv');
SELECT id, amount - (SELECT MIN(amount) FROM orders) AS d FROM orders ORDER BY ts LIMIT 3;
