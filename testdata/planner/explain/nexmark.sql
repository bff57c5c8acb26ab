-- A nexmark source (Nexmark q11: bids per bidder per session).
CREATE TABLE bid (
  auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR,
  WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
) WITH ('connector' = 'nexmark', 'nexmark.table' = 'bid', 'events.num' = '5000', 'events.rate' = '100');
EXPLAIN SELECT bidder, COUNT(*) AS bid_count, SESSION_START(dateTime, INTERVAL '10' SECOND) AS starttime
FROM bid GROUP BY bidder, SESSION(dateTime, INTERVAL '10' SECOND);
