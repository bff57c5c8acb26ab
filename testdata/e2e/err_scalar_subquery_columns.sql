-- A scalar subquery selects one column.
CREATE TABLE users (since TIMESTAMP(3), name STRING, tier STRING)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_users.csv', 'format' = 'csv');
SELECT name FROM users WHERE tier = (SELECT tier, name FROM users WHERE name = 'bob');
