-- A PostgreSQL table that does not exist: CREATE TABLE and EXPLAIN need
-- no server, the query that runs fails at 'table-name'.
CREATE TABLE orders (id BIGINT, usr STRING)
WITH ('connector' = 'jdbc', 'url' = '${url}',
  'table-name' = 'order');

EXPLAIN SELECT * FROM orders;

SELECT * FROM orders;
