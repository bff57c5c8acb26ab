-- Window Top-N over a window aggregation, Flink's documented example
-- (Queries > Window Top-N) on the documentation's Bid table. A PARTITION
-- BY with window_start and window_end makes the rank a window rank: each
-- window's ranks are emitted once, when the watermark passes its end, so
-- the result is append-only. Flink documents: 08:00-08:10 supplier1 6.00
-- 2 1, supplier2 5.00 1 2; 08:10-08:20 supplier2 9.00 2 1, supplier1 1.00
-- 1 2.
CREATE TABLE Bid (
  bidtime TIMESTAMP(3),
  price DECIMAL(10, 2),
  item STRING,
  supplier_id STRING,
  WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/bid.csv', 'format' = 'csv');

SELECT *
  FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) as rownum
    FROM (
      SELECT window_start, window_end, supplier_id, SUM(price) as price, COUNT(*) as cnt
      FROM TABLE(
        TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
      GROUP BY window_start, window_end, supplier_id
    )
  ) WHERE rownum <= 3;

-- Without the row number in the result: the top supplier per window.
SELECT window_start, supplier_id, price FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) AS rownum
  FROM (SELECT window_start, window_end, supplier_id, SUM(price) AS price
        FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
        GROUP BY window_start, window_end, supplier_id)
) WHERE rownum = 1;

-- Renamed window columns, a further partition key, a filter before the
-- rank and a rank range: the window properties pass through a
-- projection and a WHERE, as in Flink. HOP windows overlap.
SELECT * FROM (
  SELECT ws, we, supplier_id, item, price,
         ROW_NUMBER() OVER (PARTITION BY ws, supplier_id, we ORDER BY price) AS pos
  FROM (SELECT window_start AS ws, window_end AS we, supplier_id, item, SUM(price) AS price
        FROM TABLE(HOP(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES))
        GROUP BY window_start, window_end, supplier_id, item)
  WHERE price > 1
) WHERE pos BETWEEN 2 AND 3;

-- Through a view; window_time, selected, stays the time attribute, so a
-- window over the ranked rows works (cascading): the best supplier's
-- total per 10 minutes, summed per 20 minutes.
CREATE VIEW supplier_totals AS
  SELECT window_start, window_end, window_time, supplier_id, SUM(price) AS price
  FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
  GROUP BY window_start, window_end, window_time, supplier_id;
SELECT TUMBLE_START(window_time, INTERVAL '20' MINUTE) AS period, SUM(price) AS best_totals FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) AS rownum
  FROM supplier_totals
) WHERE rownum <= 1
GROUP BY TUMBLE(window_time, INTERVAL '20' MINUTE);

-- A PARTITION BY without window_start and window_end is a regular Top-N
-- over the windows' append-only rows, as in Flink: an update stream that
-- changes as later windows close (supplier2's best total, 5.00, then
-- 9.00).
SELECT * FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY supplier_id ORDER BY price DESC) AS rownum
  FROM (SELECT window_start, window_end, supplier_id, SUM(price) AS price
        FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
        GROUP BY window_start, window_end, supplier_id)
) WHERE rownum <= 1;

-- So is a rank over a legacy GROUP BY TUMBLE(...) window, even by its
-- bounds: Flink keeps no window properties for TUMBLE_START and
-- TUMBLE_END. Its rows carry the row kind (+I).
SELECT * FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY ws, we ORDER BY price DESC) AS rownum
  FROM (SELECT TUMBLE_START(bidtime, INTERVAL '10' MINUTE) AS ws, TUMBLE_END(bidtime, INTERVAL '10' MINUTE) AS we,
               SUM(price) AS price
        FROM Bid GROUP BY TUMBLE(bidtime, INTERVAL '10' MINUTE))
) WHERE rownum <= 1;

-- Windows over a TIMESTAMP_LTZ rowtime align in the session time zone;
-- the rank closes them there too.
CREATE TABLE by_epoch (
  epoch BIGINT, txt STRING, usr STRING, n INT,
  ts AS TO_TIMESTAMP_LTZ(epoch, 3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/epochs.csv', 'format' = 'csv');
SET 'table.local-time-zone' = 'Asia/Kolkata';
SELECT * FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY total DESC) AS rn
  FROM (SELECT window_start, window_end, window_time, usr, SUM(n) AS total
        FROM TABLE(TUMBLE(TABLE by_epoch, DESCRIPTOR(ts), INTERVAL '1' HOUR))
        GROUP BY window_start, window_end, window_time, usr)
) WHERE rn <= 2;

EXPLAIN SELECT * FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) AS rownum
  FROM (SELECT window_start, window_end, supplier_id, SUM(price) AS price, COUNT(*) AS cnt
        FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
        GROUP BY window_start, window_end, supplier_id)
) WHERE rownum <= 3;
