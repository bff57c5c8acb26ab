-- A table without a primary key is written in append mode: an update
-- stream (a GROUP BY without a window) is refused when it is planned.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  usr STRING,
  amount DOUBLE
) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');

CREATE TABLE totals (usr STRING, n BIGINT)
WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://localhost/shop', 'table-name' = 'totals');

INSERT INTO totals SELECT usr, COUNT(*) FROM clicks GROUP BY usr;
