-- Nexmark q18 (find last bid): per bidder and auction, the bid with the
-- latest time; of equal times the last to arrive (Flink's deduplication
-- keeps the last row by event time, a later one replacing an equal one).
SELECT auction, bidder, price, channel, url, dateTime, extra
FROM (
    SELECT *, row_number() OVER (PARTITION BY bidder, auction ORDER BY dateTime DESC, seq DESC) AS rank_number
    FROM bid
)
WHERE rank_number <= 1;
