-- A regular join's rows keep no time attribute (Flink turns them into
-- plain timestamps), so a window over them is refused.
CREATE TABLE orders (ts TIMESTAMP(3), id STRING, usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_orders.csv', 'format' = 'csv');
CREATE TABLE shipments (ts TIMESTAMP(3), oid STRING, city STRING, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_shipments.csv', 'format' = 'csv');
SELECT o.usr, COUNT(*) FROM orders o JOIN shipments s ON o.id = s.oid GROUP BY o.usr, TUMBLE(o.ts, INTERVAL '10' SECOND);
