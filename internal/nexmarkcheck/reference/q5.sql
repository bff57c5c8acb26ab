-- Nexmark q5 (hot items), the legacy form: per HOP window of 10 seconds
-- sliding by 2, the auctions with the most bids. A bid is in the 5 windows
-- whose start is its time floored to 2 seconds, minus 0 to 8 seconds.
-- check: event time
WITH windowed AS (
    SELECT auction, time_bucket(INTERVAL 2 SECOND, dateTime) - k * INTERVAL 2 SECOND AS starttime
    FROM bid, range(5) AS r(k)
),
auction_bids AS (
    SELECT auction, count(*) AS num, starttime, starttime + INTERVAL 10 SECOND AS endtime
    FROM windowed GROUP BY auction, starttime
),
max_bids AS (
    SELECT max(num) AS maxn, starttime, endtime FROM auction_bids GROUP BY starttime, endtime
)
SELECT A.auction, A.num
FROM auction_bids A JOIN max_bids M
    ON A.starttime = M.starttime AND A.endtime = M.endtime AND A.num >= M.maxn;
