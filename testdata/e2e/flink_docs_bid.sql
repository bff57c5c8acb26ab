-- The window TVF examples of Flink's documentation (Queries > Window
-- Functions), on the documentation's Bid table, as CSV and as JSON lines.
-- Flink documents: TUMBLE 10 min: 08:00-08:10 11.00, 08:10-08:20 10.00;
-- HOP 5/10 min: 11.00, 15.00, 10.00, 6.00; CUMULATE 2/10 min: 4.00, 6.00,
-- 11.00, 3.00, 4.00, 4.00, 10.00, 10.00.
CREATE TABLE Bid (
  bidtime TIMESTAMP(3),
  price DECIMAL(10, 2),
  item STRING,
  supplier_id STRING,
  WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/bid.csv', 'format' = 'csv');
CREATE TABLE BidJson (
  bidtime TIMESTAMP(3),
  price DECIMAL(10, 2),
  item STRING,
  supplier_id STRING,
  WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/bid.jsonl', 'format' = 'json');

SELECT window_start, window_end, SUM(price) AS total_price
FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
GROUP BY window_start, window_end;

SELECT window_start, window_end, SUM(price) AS total_price
FROM TABLE(HOP(TABLE BidJson, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES))
GROUP BY window_start, window_end;

SELECT window_start, window_end, SUM(price) AS total_price
FROM TABLE(CUMULATE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '2' MINUTES, INTERVAL '10' MINUTES))
GROUP BY window_start, window_end;

-- the same TUMBLE as a legacy group window, per supplier
SELECT supplier_id, TUMBLE_START(bidtime, INTERVAL '10' MINUTE) AS wstart, SUM(price) AS total_price, COUNT(*) AS bids
FROM BidJson GROUP BY supplier_id, TUMBLE(bidtime, INTERVAL '10' MINUTE);
