-- A partitioned read needs all four scan.partition keys: the table is
-- refused where it is declared.
CREATE TABLE orders (id BIGINT, usr STRING)
WITH ('connector' = 'jdbc', 'url' = '${url}',
  'table-name' = 'orders',
  'scan.partition.column' = 'id', 'scan.partition.num' = '4', 'scan.partition.lower-bound' = '0');
