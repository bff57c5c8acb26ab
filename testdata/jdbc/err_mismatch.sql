-- A column whose type the PostgreSQL table's column does not take fails
-- the query before a row is read, naming both columns' types.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  usr STRING,
  amount DOUBLE
) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');

CREATE TABLE totals (usr STRING, amount DOUBLE)
WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'totals');

INSERT INTO totals SELECT usr, amount FROM clicks;
