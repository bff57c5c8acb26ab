-- Nexmark q19 (auction Top-N): per auction, its 10 highest bids with their
-- rank; of equal prices the first to arrive ranks first (Flink's Top-N
-- puts a row after those with the same sort key). The stream updates the
-- ranks as bids come; materialised, they are the batch ranks.
SELECT auction, bidder, price, channel, url, dateTime, extra, rank_number
FROM (
    SELECT *, row_number() OVER (PARTITION BY auction ORDER BY price DESC, seq) AS rank_number
    FROM bid
)
WHERE rank_number <= 10;
