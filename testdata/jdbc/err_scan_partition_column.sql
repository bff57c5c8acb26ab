-- The partition column must be numeric, DATE or TIMESTAMP.
CREATE TABLE orders (id BIGINT, usr STRING)
WITH ('connector' = 'jdbc', 'url' = '${url}',
  'table-name' = 'orders',
  'scan.partition.column' = 'usr', 'scan.partition.num' = '4',
  'scan.partition.lower-bound' = '0', 'scan.partition.upper-bound' = '10');
