-- A jdbc table read whole feeds a GROUP BY, and is the build side of a
-- join with a file of clicks.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  usr STRING,
  amount DOUBLE
) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');

CREATE TABLE users (id STRING, name STRING, tier STRING)
WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'users');

SELECT tier, COUNT(*) AS n FROM users GROUP BY tier;

SELECT u.tier, COUNT(*) AS clicks, CAST(SUM(c.amount) AS DECIMAL(10, 2)) AS total
FROM clicks c JOIN users u ON c.usr = u.id
WHERE c.amount > 40
GROUP BY u.tier;
