-- The planner chooses the order of three or more inner-joined tables: the
-- order written, unless a join in it would have no keys (users and
-- shipments share no column) while another order gives every join keys.
-- The rows keep the columns in the order written.
CREATE TABLE orders (ts TIMESTAMP(3), id STRING, usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_orders.csv', 'format' = 'csv');
CREATE TABLE users (since TIMESTAMP(3), name STRING, tier STRING)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_users.csv', 'format' = 'csv');
CREATE TABLE shipments (ts TIMESTAMP(3), oid STRING, city STRING, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_shipments.csv', 'format' = 'csv');
EXPLAIN SELECT * FROM users u, shipments s, orders o WHERE o.usr = u.name AND s.oid = o.id;
SELECT * FROM users u, shipments s, orders o WHERE o.usr = u.name AND s.oid = o.id;
-- the conditions in ON, one of them on the join that comes first
SELECT u.name, s.city, o.amount FROM users u JOIN shipments s ON TRUE JOIN orders o ON o.usr = u.name AND s.oid = o.id;
-- written with keys on every join: the order stays
EXPLAIN SELECT u.name, s.city FROM users u JOIN orders o ON o.usr = u.name JOIN shipments s ON s.oid = o.id;
-- no order gives every join keys: the cross join stays where it is written
EXPLAIN SELECT u.name, s.city FROM users u, shipments s, orders o WHERE o.usr = u.name;
