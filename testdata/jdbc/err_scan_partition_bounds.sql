-- The lower bound must be at most the upper.
CREATE TABLE orders (id BIGINT, usr STRING)
WITH ('connector' = 'jdbc', 'url' = '${url}',
  'table-name' = 'orders',
  'scan.partition.column' = 'id', 'scan.partition.num' = '4',
  'scan.partition.lower-bound' = '100', 'scan.partition.upper-bound' = '10');
