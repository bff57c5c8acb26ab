-- Window Top-N and window deduplication directly over a window table
-- function, Flink's documented examples (Queries > Window Top-N, Window
-- Deduplication) on the documentation's Bid table: each window's rows
-- are emitted once, when the watermark passes its end; append-only.
-- Flink documents the Top-3 as 08:09 D 5.00, 08:05 C 4.00, 08:07 A 2.00;
-- 08:17 F 6.00, 08:11 B 3.00, 08:13 E 1.00, and the last bid per window
-- as 08:09 D and 08:17 F, rownum 1.
CREATE TABLE Bid (
  bidtime TIMESTAMP(3),
  price DECIMAL(10, 2),
  item STRING,
  supplier_id STRING,
  WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/bid.csv', 'format' = 'csv');

SELECT *
  FROM (
    SELECT bidtime, price, item, supplier_id, window_start, window_end, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) as rownum
    FROM TABLE(
               TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  ) WHERE rownum <= 3;

SELECT *
  FROM (
    SELECT bidtime, price, item, supplier_id, window_start, window_end,
      ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY bidtime DESC) AS rownum
    FROM TABLE(
               TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  ) WHERE rownum <= 1;

-- Keep first, per window and supplier, without the row number; HOP
-- windows overlap, so a bid can be the first of two windows.
SELECT window_start, supplier_id, bidtime, item FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, supplier_id ORDER BY bidtime) AS rn
  FROM TABLE(HOP(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES))
) WHERE rn = 1;

-- window_time stays the time attribute: a window aggregation over the
-- deduplicated rows (cascading), the number of suppliers with a bid per
-- 20 minutes.
CREATE VIEW last_bids AS
  SELECT window_time, supplier_id FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, supplier_id ORDER BY bidtime DESC) AS rn
    FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  ) WHERE rn = 1;
SELECT window_start, window_end, COUNT(*) AS suppliers
FROM TABLE(TUMBLE(TABLE last_bids, DESCRIPTOR(window_time), INTERVAL '20' MINUTES))
GROUP BY window_start, window_end;

-- Out of order rows: a row of a window the watermark has already passed
-- is late, dropped and counted (a's 23:59:59 after the watermark reached
-- 00:00:10). Ties keep arrival order. NULL sorts last descending.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT window_start, k, v, ts, rn FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY v DESC) AS rn
  FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND))
) WHERE rn <= 2;
SELECT window_start, k, ts FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, k ORDER BY ts) AS rn
  FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND))
) WHERE rn = 1;

EXPLAIN SELECT * FROM (
  SELECT bidtime, item, window_start, window_end,
    ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY bidtime DESC) AS rownum
  FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
) WHERE rownum <= 1;
