-- CSV values with the key in a column of its own (EXCEPT_KEY, a prefix
-- the key format does not see), every metadata column, a bad message
-- skipped and counted, and the reads started and ended at given offsets.
CREATE TABLE orders (
  k_id        STRING,
  item        STRING,
  qty         INT,
  `topic`     STRING METADATA VIRTUAL,
  `partition` INT METADATA VIRTUAL,
  `offset`    BIGINT METADATA VIRTUAL,
  msg_time    TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
  ts_type     STRING METADATA FROM 'timestamp-type' VIRTUAL,
  hdrs        MAP<STRING, BYTES> METADATA FROM 'headers' VIRTUAL,
  raw_key     BYTES METADATA FROM 'key' VIRTUAL
) WITH (
  'connector' = 'kafka',
  'topic' = 'orders',
  'properties.bootstrap.servers' = '${brokers}',
  'scan.startup.mode' = 'specific-offsets',
  'scan.startup.specific-offsets' = 'partition:0,offset:1;partition:1,offset:0',
  'scan.bounded.mode' = 'specific-offsets',
  'scan.bounded.specific-offsets' = 'partition:0,offset:4;partition:1,offset:3',
  'key.format' = 'raw',
  'key.fields' = 'k_id',
  'key.fields-prefix' = 'k_',
  'value.fields-include' = 'EXCEPT_KEY',
  'value.format' = 'csv',
  'value.csv.ignore-parse-errors' = 'true'
);

SET 'table.local-time-zone' = 'UTC';

SELECT k_id, item, qty, `topic`, `partition`, `offset`, msg_time, ts_type, CARDINALITY(hdrs) AS headers, raw_key
FROM orders;
