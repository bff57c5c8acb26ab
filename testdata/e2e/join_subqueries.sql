-- IN and EXISTS subqueries are semi joins, NOT IN and NOT EXISTS anti
-- joins (Flink's rewrite). An anti join's row goes (-D) when its first
-- match arrives; NOT IN is false for a NULL, as SQL's three-valued logic.
CREATE TABLE orders (ts TIMESTAMP(3), id STRING, usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_orders.csv', 'format' = 'csv');
CREATE TABLE users (since TIMESTAMP(3), name STRING, tier STRING)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_users.csv', 'format' = 'csv');
CREATE TABLE shipments (ts TIMESTAMP(3), oid STRING, city STRING, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_shipments.csv', 'format' = 'csv');
EXPLAIN SELECT id FROM orders WHERE usr IN (SELECT name FROM users WHERE tier = 'gold');
SELECT id, usr FROM orders WHERE usr IN (SELECT name FROM users WHERE tier = 'gold');
SELECT id FROM orders o WHERE EXISTS (SELECT * FROM shipments s WHERE s.oid = o.id AND s.city <> 'braga') AND amount > 5;
SELECT id FROM orders o WHERE NOT EXISTS (SELECT * FROM shipments s WHERE s.oid = o.id);
SELECT id, usr FROM orders WHERE usr NOT IN (SELECT name FROM users WHERE tier = 'gold');
-- a subquery that aggregates joins as a whole
SELECT id, amount FROM orders WHERE usr IN (SELECT usr FROM orders GROUP BY usr HAVING COUNT(*) > 1);
