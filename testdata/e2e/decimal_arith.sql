-- Numbers with a point are DECIMAL, as in Flink: 0.1 is DECIMAL(2, 1), so
-- 0.1 + 0.2 is exactly 0.3 (DECIMAL(3, 1)), not 0.30000000000000004. An
-- exponent makes a DOUBLE. Arithmetic follows Flink's LogicalTypeMerging:
-- + and - keep the larger scale, * adds the scales, / keeps at least 6
-- digits after the point, and a BIGINT counts as DECIMAL(19, 0).
CREATE TABLE nums (
  id INT,
  big DECIMAL(38, 0),
  price DECIMAL(10, 3),
  n INT
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/decimals.csv', 'format' = 'csv');

CREATE VIEW typed AS
SELECT id,
  0.1 + 0.2 AS point_three,
  1.50 AS one_fifty,
  1e3 AS exponent,
  0.908 * CAST(n AS BIGINT) AS q1_price,
  price * 2 AS doubled,
  price - 0.0005 AS minus,
  -price AS negated,
  price / 3 AS third,
  n / 2.0 AS half,
  price % 1 AS fraction,
  big + 1 AS overflow,
  price * CAST(n AS DOUBLE) AS approximate
FROM nums;

DESCRIBE typed;

SELECT * FROM typed;

-- Comparisons with a decimal literal are exact.
SELECT id, price FROM nums WHERE price > 0.005 AND price <= 2.5;

-- Nexmark q1 (Flink: 0.908 * price over a BIGINT price prints 3037367.144).
CREATE TABLE bids (auction BIGINT, price BIGINT) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/decimal_bids.csv', 'format' = 'csv');

SELECT auction, 0.908 * price AS price FROM bids;

-- SUM and AVG over a DECIMAL(10, 2) column in a window: DECIMAL(38, 2) and
-- DECIMAL(38, 6) (Flink's findSumAggType and findAvgAggType), and the
-- arithmetic on them stays exact.
CREATE TABLE Bid (
  bidtime TIMESTAMP(3),
  price DECIMAL(10, 2),
  item STRING,
  supplier_id STRING,
  WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/bid.csv', 'format' = 'csv');

SELECT window_start, SUM(price) AS total, AVG(price) AS mean, SUM(price) * 1.1 AS with_tax,
  SUM(price) / COUNT(*) AS by_hand, MIN(price * 0.5) AS low, MAX(price) - MIN(price) AS spread
FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))
GROUP BY window_start, window_end;

-- CAST to and from DECIMAL rounds half up; text and numbers round trip.
SELECT id,
  CAST(CAST(price AS STRING) AS DECIMAL(10, 3)) = price AS text_round_trip,
  CAST(CAST(price AS DOUBLE) AS DECIMAL(10, 3)) AS via_double,
  CAST(price AS DECIMAL(10, 2)) AS half_up,
  CAST(price * 1000 AS BIGINT) AS to_bigint,
  CAST(2.5 AS INT) AS int_of_literal,
  CAST(0.1 + 0.2 AS DOUBLE) AS double_of_sum
FROM nums;
