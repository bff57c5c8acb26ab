-- Nexmark q14 (calculation): the bids priced between 1,000,000 and
-- 50,000,000 euros, with the part of the day of their time and the count of
-- 'c' in extra (the nexmark project's count_char function).
SELECT
    auction,
    bidder,
    CAST(0.908 * price AS DECIMAL(23, 3)) AS price,
    CASE
        WHEN hour(dateTime) >= 8 AND hour(dateTime) <= 18 THEN 'dayTime'
        WHEN hour(dateTime) <= 6 OR hour(dateTime) >= 20 THEN 'nightTime'
        ELSE 'otherTime'
    END AS bidTimeType,
    dateTime,
    extra,
    CAST(length(extra) - length(replace(extra, 'c', '')) AS BIGINT) AS c_counts
FROM bid
WHERE 0.908 * price > 1000000 AND 0.908 * price < 50000000;
