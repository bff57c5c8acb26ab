-- Nexmark q12 (processing time windows) over window TVFs: per bidder, its
-- bids in each 10-second TUMBLE window of processing time. The suite runs
-- with a manual clock that stands still at 2024-03-01 09:30:00 (see
-- runNexmarkQuery), so PROCTIME() is that instant for every bid: one window,
-- [09:30:00, 09:30:10), closed when the input ends. This checks the counts
-- and the window's bounds, not when a window closes as the clock moves.
SELECT bidder, count(*) AS bid_count,
    time_bucket(INTERVAL 10 SECOND, TIMESTAMP '2024-03-01 09:30:00') AS starttime,
    time_bucket(INTERVAL 10 SECOND, TIMESTAMP '2024-03-01 09:30:00') + INTERVAL 10 SECOND AS endtime
FROM bid
GROUP BY bidder;
