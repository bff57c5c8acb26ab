-- Window joins: both sides windowed by the same TUMBLE, joined on
-- window_start and window_end; each window's rows come out once the
-- watermark passes its end, and a row of a window already joined is late.
CREATE TABLE orders (ts TIMESTAMP(3), id STRING, usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_orders.csv', 'format' = 'csv');
CREATE TABLE shipments (ts TIMESTAMP(3), oid STRING, city STRING, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_shipments.csv', 'format' = 'csv');
EXPLAIN SELECT o.id, s.city, o.window_start FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' SECOND)) o
JOIN TABLE(TUMBLE(TABLE shipments, DESCRIPTOR(ts), INTERVAL '10' SECOND)) s
ON o.id = s.oid AND o.window_start = s.window_start AND o.window_end = s.window_end;
SELECT o.id, s.city, o.window_start, o.window_end FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' SECOND)) o
JOIN TABLE(TUMBLE(TABLE shipments, DESCRIPTOR(ts), INTERVAL '10' SECOND)) s
ON o.id = s.oid AND o.window_start = s.window_start AND o.window_end = s.window_end;
SELECT o.id, s.oid, s.city, COALESCE(o.window_start, s.window_start) AS w FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' SECOND)) o
FULL JOIN TABLE(TUMBLE(TABLE shipments, DESCRIPTOR(ts), INTERVAL '10' SECOND)) s
ON o.id = s.oid AND o.window_start = s.window_start AND o.window_end = s.window_end;
-- window aggregations on both sides, their windows renamed
SELECT a.usr, a.n, b.cities, a.ws FROM
  (SELECT usr, COUNT(*) AS n, window_start AS ws, window_end AS we FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY usr, window_start, window_end) a
JOIN
  (SELECT COUNT(*) AS cities, window_start AS ws, window_end AS we FROM TABLE(TUMBLE(TABLE shipments, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end) b
ON a.ws = b.ws AND a.we = b.we;
