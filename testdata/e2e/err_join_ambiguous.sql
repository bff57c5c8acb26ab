-- An unqualified column both sides have is ambiguous, as in Flink.
CREATE TABLE orders (ts TIMESTAMP(3), id STRING, usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_orders.csv', 'format' = 'csv');
CREATE TABLE shipments (ts TIMESTAMP(3), oid STRING, city STRING, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_shipments.csv', 'format' = 'csv');
SELECT id FROM orders o JOIN shipments s ON o.id = s.oid WHERE ts > TIMESTAMP '2024-01-01 00:00:00';
