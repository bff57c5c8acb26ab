-- Nexmark q11 (user sessions): per bidder, the bids of each SESSION window
-- with a 10-second gap. A bid opens a new session when it comes 10 seconds
-- or more after the bidder's previous one (its window [t, t + 10 s) does
-- not meet the session's); a session ends 10 seconds after its last bid.
-- check: event time
WITH marked AS (
    SELECT bidder, dateTime, seq,
        coalesce(dateTime - lag(dateTime) OVER (PARTITION BY bidder ORDER BY dateTime, seq)
            >= INTERVAL 10 SECOND, true) AS opens
    FROM bid
),
sessions AS (
    SELECT bidder, dateTime,
        sum(CASE WHEN opens THEN 1 ELSE 0 END) OVER (PARTITION BY bidder ORDER BY dateTime, seq
            ROWS UNBOUNDED PRECEDING) AS session
    FROM marked
)
SELECT bidder, count(*) AS bid_count, min(dateTime) AS starttime,
    max(dateTime) + INTERVAL 10 SECOND AS endtime
FROM sessions
GROUP BY bidder, session;
