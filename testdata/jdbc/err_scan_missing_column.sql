-- A column the PostgreSQL table lacks fails the query when it is
-- planned to run, at the column's declaration.
CREATE TABLE orders (
  id BIGINT,
  user_name STRING
) WITH ('connector' = 'jdbc', 'url' = '${url}',
  'table-name' = 'orders');

SELECT * FROM orders;
