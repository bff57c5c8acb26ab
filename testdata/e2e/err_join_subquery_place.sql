-- A subquery is planned as a join only as a condition of WHERE.
CREATE TABLE orders (ts TIMESTAMP(3), id STRING, usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_orders.csv', 'format' = 'csv');
SELECT id FROM orders WHERE amount > 5 OR usr IN (SELECT usr FROM orders WHERE amount > 30);
