-- A scalar subquery without an aggregate may give more than one row:
-- Flink's SINGLE_VALUE fails the run at the second, whether or not a row
-- of the query meets it (here none does).
CREATE TABLE users (since TIMESTAMP(3), name STRING, tier STRING)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_users.csv', 'format' = 'csv');
SELECT name, (SELECT name FROM users WHERE tier = 'none' OR name = 'bob') AS other FROM users WHERE tier = 'platinum';
