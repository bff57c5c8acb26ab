-- Scalar subqueries are LEFT joins with a single-row aggregate (Flink's
-- rewrite): uncorrelated ones join without keys, correlated ones group
-- by the correlation keys and join on them. The subquery's value changes
-- as its rows come, so the result is an update stream; no row is NULL.
CREATE TABLE orders (ts TIMESTAMP(3), id STRING, usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_orders.csv', 'format' = 'csv');
CREATE TABLE users (since TIMESTAMP(3), name STRING, tier STRING)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_users.csv', 'format' = 'csv');
EXPLAIN SELECT id, amount FROM orders WHERE amount > (SELECT AVG(amount) FROM orders);
SELECT id, amount FROM orders WHERE amount > (SELECT AVG(amount) FROM orders);
-- correlated, in the select list: the largest order of the same user
EXPLAIN SELECT o.*, (SELECT MAX(amount) FROM orders o2 WHERE o2.usr = o.usr) AS top FROM orders o;
SELECT o.*, (SELECT MAX(amount) FROM orders o2 WHERE o2.usr = o.usr) AS top FROM orders o;
-- in HAVING: users above a tenth of all orders' total
SELECT usr, SUM(amount) AS total FROM orders GROUP BY usr HAVING SUM(amount) > (SELECT SUM(amount) / 10 FROM orders);
-- without an aggregate: SINGLE_VALUE, per correlation key
EXPLAIN SELECT id, (SELECT tier FROM users WHERE name = usr) FROM orders;
SELECT id, (SELECT tier FROM users WHERE name = usr) FROM orders;
-- an empty subquery is NULL
SELECT id, amount - (SELECT MIN(amount) FROM orders WHERE amount > 100) AS above FROM orders WHERE amount > 20;
-- SINGLE_VALUE itself (Flink documents no example): each user's one
-- order but alice's, whose second would fail; a NULL argument is NULL
SELECT usr, SINGLE_VALUE(amount) AS amount, SINGLE_VALUE(CAST(NULL AS INT)) AS nothing FROM orders WHERE usr <> 'alice' AND usr <> 'bob' GROUP BY usr;
-- correlated in an aggregating query: the aggregation first, its grouping
-- key then joins the subquery
SELECT usr, SUM(amount) AS total, (SELECT tier FROM users WHERE name = usr) AS tier FROM orders GROUP BY usr;
SELECT usr, COUNT(*) AS n FROM orders o GROUP BY usr HAVING COUNT(*) > (SELECT COUNT(*) FROM users WHERE name = o.usr);
