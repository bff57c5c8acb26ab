-- Nexmark q11 (user sessions): bids per bidder per session of activity,
-- over 5000 events (4600 bids) at 100 events per second of event time.
CREATE TABLE bid (
  auction BIGINT,
  bidder BIGINT,
  price BIGINT,
  channel VARCHAR,
  url VARCHAR,
  dateTime TIMESTAMP(3),
  extra VARCHAR,
  WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
) WITH (
  'connector' = 'nexmark',
  'nexmark.table' = 'bid',
  'events.num' = '5000',
  'events.rate' = '100'
);

SELECT
  bidder,
  COUNT(*) AS bid_count,
  SESSION_START(dateTime, INTERVAL '10' SECOND) AS starttime,
  SESSION_END(dateTime, INTERVAL '10' SECOND) AS endtime
FROM bid
GROUP BY bidder, SESSION(dateTime, INTERVAL '10' SECOND);

-- The mix: 4600 bids of 5000 events; and the hot auctions.
SELECT auction, COUNT(*) AS n, MAX(price) AS top
FROM bid GROUP BY auction, TUMBLE(dateTime, INTERVAL '1' MINUTE) HAVING COUNT(*) > 100;

EXPLAIN SELECT bidder, COUNT(*) FROM bid GROUP BY bidder, SESSION(dateTime, INTERVAL '10' SECOND);
