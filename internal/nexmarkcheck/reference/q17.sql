-- Nexmark q17 (auction statistics report): per auction and day, counts at
-- three price levels and the price's min, max, average and sum. AVG of a
-- BIGINT is a BIGINT in Flink: the sum divided by the count, truncated.
SELECT
    auction,
    strftime(dateTime, '%Y-%m-%d') AS day,
    count(*) AS total_bids,
    count(*) FILTER (WHERE price < 10000) AS rank1_bids,
    count(*) FILTER (WHERE price >= 10000 AND price < 1000000) AS rank2_bids,
    count(*) FILTER (WHERE price >= 1000000) AS rank3_bids,
    min(price) AS min_price,
    max(price) AS max_price,
    CAST(trunc(sum(price) / count(price)) AS BIGINT) AS avg_price,
    CAST(sum(price) AS BIGINT) AS sum_price
FROM bid
GROUP BY auction, strftime(dateTime, '%Y-%m-%d');
