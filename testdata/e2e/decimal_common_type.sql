-- DECIMALs meeting in COALESCE, CASE, IF and NULLIF keep a DECIMAL type, by
-- Flink's common-type rule (LogicalTypeMerging): the most integer digits
-- of either side, then the larger scale, at most 38 digits; an INT counts
-- as DECIMAL(10, 0), a BIGINT as DECIMAL(19, 0). Only a float makes DOUBLE.
-- Comparisons of a DECIMAL with an INT or another DECIMAL are exact.
CREATE TABLE nums (
  id INT,
  big DECIMAL(38, 0),
  price DECIMAL(10, 3),
  n INT
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/decimals.csv', 'format' = 'csv');

CREATE VIEW mixed AS
SELECT id,
  COALESCE(price, CAST(1.2345 AS DECIMAL(5, 4))) AS coalesced,
  CASE WHEN id = 1 THEN price WHEN id = 2 THEN CAST(0.5 AS DECIMAL(2, 1)) ELSE n END AS cased,
  IF(id > 2, price, CAST(id AS BIGINT)) AS iffed,
  IFNULL(big, price) AS widest,
  NULLIF(price, CAST(2.5 AS DECIMAL(2, 1))) AS nulled,
  COALESCE(price, CAST(n AS DOUBLE)) AS approximate,
  price > 1 AS over_one,
  price = CAST(0.005 AS DECIMAL(4, 3)) AS exact_equal,
  price BETWEEN 0 AND CAST(2.5 AS DECIMAL(2, 1)) AS in_range
FROM nums;

DESCRIBE mixed;

SELECT * FROM mixed;

-- A DECIMAL, or a conditional over one, is a group key like any other.
CREATE TABLE Bid (
  bidtime TIMESTAMP(3),
  price DECIMAL(10, 2),
  item STRING,
  supplier_id STRING,
  WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/bid.csv', 'format' = 'csv');

SELECT IF(price > 3, price, 0) AS band, COUNT(*) AS n, SUM(COALESCE(price, 0)) AS total,
  TUMBLE_END(bidtime, INTERVAL '10' MINUTE) AS wend
FROM Bid
GROUP BY IF(price > 3, price, 0), TUMBLE(bidtime, INTERVAL '10' MINUTE);

SELECT window_start, price, COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
GROUP BY window_start, window_end, price;
