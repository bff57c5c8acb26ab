-- Nexmark q7 (highest bid) over window TVFs: the bids whose price is the
-- highest of a 10-second TUMBLE window and whose time is within 10 seconds
-- before that window's end (window_end, a plain TIMESTAMP: a regular join).
-- The INSERT's columns are the query's in order: the sink's bidder column
-- gets the price and its price column the bidder, as in the nexmark project.
-- check: event time
WITH B1 AS (
    SELECT max(price) AS maxprice,
        time_bucket(INTERVAL 10 SECOND, dateTime) + INTERVAL 10 SECOND AS dateTime
    FROM bid
    GROUP BY time_bucket(INTERVAL 10 SECOND, dateTime)
)
SELECT B.auction, B.price, B.bidder, B.dateTime, B.extra
FROM bid B JOIN B1 ON B.price = B1.maxprice
WHERE B.dateTime BETWEEN B1.dateTime - INTERVAL 10 SECOND AND B1.dateTime;
