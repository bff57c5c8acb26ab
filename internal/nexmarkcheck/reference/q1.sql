-- Nexmark q1 (currency conversion): every bid's price in euros, as the
-- sink's DECIMAL(23, 3); 0.908 * price is exact in three decimals.
SELECT
    auction,
    bidder,
    CAST(0.908 * price AS DECIMAL(23, 3)) AS price,
    dateTime,
    extra
FROM bid;
