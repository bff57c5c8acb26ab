-- A column of a type the PostgreSQL column is not read into fails the
-- query when it is planned to run, at the column's declaration, naming
-- both types.
CREATE TABLE orders (
  id INT,
  amount DECIMAL(10, 2)
) WITH ('connector' = 'jdbc', 'url' = '${url}',
  'table-name' = 'orders');

SELECT * FROM orders;
