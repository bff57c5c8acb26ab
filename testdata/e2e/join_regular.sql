-- Regular joins as Flink's StreamingJoinOperator: INNER, LEFT, RIGHT and
-- FULL OUTER over the same orders and users. An outer join's padded row is
-- retracted (-D) when its first match arrives; a NULL key matches nothing.
CREATE TABLE orders (ts TIMESTAMP(3), id STRING, usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_orders.csv', 'format' = 'csv');
CREATE TABLE users (since TIMESTAMP(3), name STRING, tier STRING)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_users.csv', 'format' = 'csv');
EXPLAIN SELECT o.id, u.tier FROM orders AS o JOIN users AS u ON o.usr = u.name WHERE o.amount > 5 AND u.tier <> 'none';
SELECT o.id, o.usr, u.tier FROM orders AS o JOIN users AS u ON o.usr = u.name;
SELECT o.id, u.name, u.tier FROM orders AS o LEFT JOIN users AS u ON o.usr = u.name AND u.tier = 'gold';
SELECT o.id, u.name FROM orders AS o RIGHT JOIN users u ON o.usr = u.name;
SELECT o.id, u.name FROM orders o FULL OUTER JOIN users u ON o.usr = u.name;
-- a comma join whose condition is in WHERE, a residual condition, A.*
SELECT u.*, o.amount FROM orders o, users u WHERE o.usr = u.name AND o.amount * 2 > 30;
-- a GROUP BY's updates joined: the joined rows are retracted with them
SELECT t.usr, t.total, u.tier FROM (SELECT usr, SUM(amount) AS total FROM orders GROUP BY usr) AS t JOIN users AS u ON t.usr = u.name;
-- three tables
CREATE TABLE shipments (ts TIMESTAMP(3), oid STRING, city STRING, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_shipments.csv', 'format' = 'csv');
SELECT o.id, u.tier, s.city FROM orders o JOIN users u ON o.usr = u.name JOIN shipments s ON o.id = s.oid;
EXPLAIN SELECT o.id, u.tier, s.city FROM orders o JOIN users u ON o.usr = u.name JOIN shipments s ON o.id = s.oid;
