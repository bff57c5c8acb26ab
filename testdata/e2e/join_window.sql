-- Window joins: both sides windowed by the same TUMBLE, joined on
-- window_start and window_end; each window's rows come out once the
-- watermark passes its end, and a row of a window already joined is late.
-- Also SEMI and ANTI window joins, and the windows of SESSION aggregations.
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
-- SEMI and ANTI window joins: IN, EXISTS, NOT IN and NOT EXISTS of a
-- windowed subquery correlated on the window
SELECT o.id, o.window_start FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' SECOND)) o
WHERE o.id IN (SELECT s.oid FROM TABLE(TUMBLE(TABLE shipments, DESCRIPTOR(ts), INTERVAL '10' SECOND)) s
  WHERE o.window_start = s.window_start AND o.window_end = s.window_end);
SELECT o.id, o.window_start FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '10' SECOND)) o
WHERE NOT EXISTS (SELECT * FROM TABLE(TUMBLE(TABLE shipments, DESCRIPTOR(ts), INTERVAL '10' SECOND)) s
  WHERE o.id = s.oid AND o.window_start = s.window_start AND o.window_end = s.window_end);
-- windows of SESSION aggregations joined on their bounds
SELECT a.usr, a.n, b.total, a.ws, a.we FROM
  (SELECT usr, COUNT(*) AS n, window_start AS ws, window_end AS we FROM TABLE(SESSION(TABLE orders PARTITION BY usr, DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY usr, window_start, window_end) a
JOIN
  (SELECT usr, SUM(amount) AS total, window_start AS ws, window_end AS we FROM TABLE(SESSION(TABLE orders PARTITION BY usr, DESCRIPTOR(ts), INTERVAL '5' SECOND)) WHERE amount > 5 GROUP BY usr, window_start, window_end) b
ON a.usr = b.usr AND a.ws = b.ws AND a.we = b.we;
