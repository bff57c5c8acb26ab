-- Processing-time temporal joins (lookup joins): each order joins the rows
-- of users, a table of files, as they are when the order is processed
-- (FOR SYSTEM_TIME AS OF a PROCTIME() column). The table is read whole when
-- the query starts, and again when its files change. The orders keep their
-- rowtime, so a window can follow the join.
CREATE TABLE orders (ts TIMESTAMP(3), id STRING, usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_orders.csv', 'format' = 'csv');
CREATE TABLE users (since TIMESTAMP(3), name STRING, tier STRING)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_users.csv', 'format' = 'csv', 'lookup.join.cache.ttl' = '10 min');
CREATE VIEW orders_p AS SELECT *, PROCTIME() AS pt FROM orders;
EXPLAIN SELECT o.id, u.tier FROM orders_p AS o JOIN users FOR SYSTEM_TIME AS OF o.pt AS u ON o.usr = u.name;
SELECT o.id, o.usr, u.tier FROM orders_p AS o JOIN users FOR SYSTEM_TIME AS OF o.pt AS u ON o.usr = u.name;
-- LEFT: an order without a user's row is padded; a condition on the table's
-- columns in ON only decides which rows match
SELECT o.id, u.name, u.tier FROM orders_p AS o LEFT JOIN users FOR SYSTEM_TIME AS OF o.pt AS u
  ON o.usr = u.name AND u.tier = 'gold';
-- the key may be an expression of the order's columns
SELECT o.id, u.name FROM orders_p AS o JOIN users FOR SYSTEM_TIME AS OF o.pt AS u ON LOWER(o.usr) = u.name AND o.amount > 5;
-- a window over the joined rows, by the order's time
SELECT TUMBLE_START(o.ts, INTERVAL '5' SECOND) AS w, u.tier, SUM(o.amount) AS total
FROM orders_p AS o JOIN users FOR SYSTEM_TIME AS OF o.pt AS u ON o.usr = u.name
GROUP BY TUMBLE(o.ts, INTERVAL '5' SECOND), u.tier;
-- the table declared with Flink's legacy keys, as Nexmark's q13 does
CREATE TABLE users_legacy (since TIMESTAMP(3), name STRING, tier STRING)
  WITH ('connector.type' = 'filesystem', 'connector.path' = 'file:testdata/e2e/join_users.csv', 'format.type' = 'csv');
SELECT o.id, u.tier FROM orders_p AS o JOIN users_legacy FOR SYSTEM_TIME AS OF o.pt AS u ON o.usr = u.name;
