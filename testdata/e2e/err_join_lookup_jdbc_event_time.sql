-- A jdbc table is read by a lookup join only (FOR SYSTEM_TIME AS OF a
-- PROCTIME() column): FOR SYSTEM_TIME AS OF the orders' rowtime would
-- need the table's history, which a jdbc table does not give.
CREATE TABLE orders (ts TIMESTAMP(3), id STRING, usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_orders.csv', 'format' = 'csv');
CREATE TABLE users (name STRING, tier STRING) WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://localhost/shop', 'table-name' = 'users');
SELECT o.id, u.tier FROM orders AS o JOIN users FOR SYSTEM_TIME AS OF o.ts AS u ON o.usr = u.name;
