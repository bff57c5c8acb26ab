-- A lookup join against a PostgreSQL table (connector 'jdbc'): the table
-- is queried by key, one query a batch for the keys the cache does not
-- hold; the LookupJoin line shows the cache. No scan of the table.
CREATE TABLE orders (ts TIMESTAMP(3), id STRING, usr STRING, amount INT, pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'orders.csv', 'format' = 'csv');
CREATE TABLE users (name STRING, tier STRING, credit INT)
WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://localhost/shop', 'table-name' = 'users',
  'lookup.cache' = 'PARTIAL', 'lookup.partial-cache.max-rows' = '5000', 'lookup.partial-cache.expire-after-access' = '30 s',
  'lookup.partial-cache.cache-missing-key' = 'false');
CREATE TABLE rates (usr STRING, amount BIGINT, rate DECIMAL(4, 2))
WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://localhost/shop', 'table-name' = 'rates');
EXPLAIN SELECT o.id, u.tier FROM orders AS o LEFT JOIN users FOR SYSTEM_TIME AS OF o.pt AS u ON o.usr = u.name AND u.credit > 10;
EXPLAIN SELECT o.id, r.rate FROM orders AS o JOIN rates FOR SYSTEM_TIME AS OF o.pt AS r ON UPPER(o.usr) = r.usr AND o.amount = r.amount;
