-- A partitioned scan reads each range of 'scan.partition.column' by a
-- query of its own, on connections sharing one snapshot. As in Flink, the
-- bounds also filter: the rows with an id below 1 or above 20 are not
-- read. 20 values in 3 ranges: 1..7, 8..14, 15..20. The rows are copied
-- into another PostgreSQL table, printed in order after the run.
CREATE TABLE orders (
  id BIGINT,
  usr STRING,
  amount DECIMAL(10, 2),
  placed DATE
) WITH (
  'connector' = 'jdbc',
  'url' = '${url}',
  'table-name' = 'orders',
  'scan.partition.column' = 'id',
  'scan.partition.num' = '3',
  'scan.partition.lower-bound' = '1',
  'scan.partition.upper-bound' = '20'
);

CREATE TABLE orders_copy (id BIGINT, usr STRING, amount DECIMAL(10, 2), placed DATE)
WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'orders_copy');

EXPLAIN SELECT id, usr FROM orders;

INSERT INTO orders_copy SELECT * FROM orders;

-- By a DATE column, with a cursor fetching 3 rows a round trip: the days
-- 2024-01-05 to 2024-01-12 in 2 ranges.
CREATE TABLE orders_by_day (
  id BIGINT,
  placed DATE
) WITH (
  'connector' = 'jdbc',
  'url' = '${url}',
  'table-name' = 'orders',
  'scan.partition.column' = 'placed',
  'scan.partition.num' = '2',
  'scan.partition.lower-bound' = '2024-01-05',
  'scan.partition.upper-bound' = '2024-01-12',
  'scan.fetch-size' = '3'
);

CREATE TABLE days (first_day DATE, last_day DATE, n BIGINT, PRIMARY KEY (first_day) NOT ENFORCED)
WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'days');

INSERT INTO days SELECT MIN(placed), MAX(placed), COUNT(*) FROM orders_by_day;
