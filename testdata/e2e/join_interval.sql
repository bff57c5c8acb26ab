-- Interval joins: a shipment joins its order when it left within 10
-- seconds of it. Rows keep their time attributes, so a window can follow;
-- an outer join pads an order with no shipment once the watermark passes
-- its interval's end.
CREATE TABLE orders (ts TIMESTAMP(3), id STRING, usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_orders.csv', 'format' = 'csv');
CREATE TABLE shipments (ts TIMESTAMP(3), oid STRING, city STRING, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_shipments.csv', 'format' = 'csv');
EXPLAIN SELECT o.id, s.city FROM orders o JOIN shipments s ON o.id = s.oid AND s.ts BETWEEN o.ts AND o.ts + INTERVAL '10' SECOND;
SELECT o.id, o.ts, s.ts AS shipped, s.city FROM orders o JOIN shipments s ON o.id = s.oid AND s.ts BETWEEN o.ts AND o.ts + INTERVAL '10' SECOND;
SELECT o.id, s.city FROM orders o LEFT JOIN shipments s ON o.id = s.oid AND s.ts >= o.ts AND s.ts < o.ts + INTERVAL '10' SECOND;
SELECT o.id, s.oid, s.city FROM orders o FULL JOIN shipments s ON o.id = s.oid AND o.ts > s.ts - INTERVAL '10' SECOND AND o.ts <= s.ts;
-- the same condition in WHERE of a comma join
SELECT o.id, s.city FROM orders o, shipments s WHERE o.id = s.oid AND s.ts BETWEEN o.ts AND o.ts + INTERVAL '10' SECOND;
-- a window over the joined rows, by the order's time
SELECT TUMBLE_START(o.ts, INTERVAL '10' SECOND) AS w, COUNT(*) AS shipped, SUM(o.amount) AS amount
FROM orders o JOIN shipments s ON o.id = s.oid AND s.ts BETWEEN o.ts AND o.ts + INTERVAL '10' SECOND
GROUP BY TUMBLE(o.ts, INTERVAL '10' SECOND);
