-- Nexmark q21 (add channel id): the bids of the four known channels, or
-- whose url has a channel_id parameter, with that id. Flink's
-- REGEXP_EXTRACT is NULL where the pattern does not match (DuckDB's
-- regexp_extract is '').
SELECT
    auction, bidder, price, channel,
    CASE
        WHEN lower(channel) = 'apple' THEN '0'
        WHEN lower(channel) = 'google' THEN '1'
        WHEN lower(channel) = 'facebook' THEN '2'
        WHEN lower(channel) = 'baidu' THEN '3'
        ELSE channel_id
    END AS channel_id
FROM (
    SELECT *,
        CASE WHEN regexp_matches(url, '(&|^)channel_id=([^&]*)')
            THEN regexp_extract(url, '(&|^)channel_id=([^&]*)', 2) END AS channel_id
    FROM bid
)
WHERE channel_id IS NOT NULL OR lower(channel) IN ('apple', 'google', 'facebook', 'baidu');
