-- Lookup joins against PostgreSQL tables (FOR SYSTEM_TIME AS OF a
-- PROCTIME() column): each batch of orders queries the keys its cache
-- does not hold, in one query. carol and dave have no user row (dave no
-- row anywhere), an order without a user has a NULL key, alice has two
-- addresses. The summary counts the probe rows whose key the cache held
-- (hits) and those whose key was fetched (misses).
CREATE TABLE orders (ts TIMESTAMP(3), id STRING, usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_orders.csv', 'format' = 'csv');
CREATE VIEW orders_p AS SELECT *, PROCTIME() AS pt FROM orders;

CREATE TABLE users (name STRING, tier STRING, credit INT)
WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'users',
  'lookup.cache' = 'PARTIAL', 'lookup.partial-cache.max-rows' = '1000',
  'lookup.partial-cache.expire-after-write' = '10 min');

CREATE TABLE addresses (id INT, usr STRING, city STRING)
WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'addresses',
  'lookup.cache' = 'PARTIAL', 'lookup.partial-cache.cache-missing-key' = 'false');

CREATE TABLE rates (usr STRING, amount BIGINT, rate DECIMAL(4, 2))
WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'rates');

EXPLAIN SELECT o.id, u.tier FROM orders_p AS o JOIN users FOR SYSTEM_TIME AS OF o.pt AS u ON o.usr = u.name;

-- INNER: an order whose key has no row is dropped
SELECT o.id, o.usr, u.tier, u.credit FROM orders_p AS o JOIN users FOR SYSTEM_TIME AS OF o.pt AS u ON o.usr = u.name;

-- LEFT: padded; a condition on the table's columns in ON decides which rows match
SELECT o.id, u.name, u.tier FROM orders_p AS o LEFT JOIN users FOR SYSTEM_TIME AS OF o.pt AS u
  ON o.usr = u.name AND u.credit > 60;

-- a key with many rows joins each; a key without rows (dave's) is not
-- cached here
SELECT o.id, a.city FROM orders_p AS o LEFT JOIN addresses FOR SYSTEM_TIME AS OF o.pt AS a ON o.usr = a.usr;

-- a key of two columns (the INT amount cast to the table's BIGINT), no cache
SELECT o.id, r.rate FROM orders_p AS o JOIN rates FOR SYSTEM_TIME AS OF o.pt AS r
  ON o.usr = r.usr AND o.amount = r.amount;
