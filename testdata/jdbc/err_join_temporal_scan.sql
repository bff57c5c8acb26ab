-- FOR SYSTEM_TIME AS OF the orders' rowtime joins with a versioned
-- table: its history, by its event time and primary key. A jdbc table
-- read by a scan is the table as of one moment, without a history: the
-- join is refused as for any table without a rowtime and primary key.
-- (FOR SYSTEM_TIME AS OF a PROCTIME() column looks it up by key: see
-- lookup_join.sql.)
CREATE TABLE orders (ts TIMESTAMP(3), id STRING, usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_orders.csv', 'format' = 'csv');
CREATE TABLE users (name STRING, tier STRING) WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'users');
SELECT o.id, u.tier FROM orders AS o JOIN users FOR SYSTEM_TIME AS OF o.ts AS u ON o.usr = u.name;
