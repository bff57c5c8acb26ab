-- Nexmark q6 (average selling price by seller): per seller, the average of
-- the winning bids of its last auctions (the current and 10 preceding rows,
-- by the winning bid's time). Its batch meaning is below, but the stream's
-- is not that: the winning bid of an auction changes as bids come, and the
-- OVER window would have to take back rows it already averaged. Flink
-- refuses the query for that reason (the nexmark project's file says so).
-- check: not comparable: Flink refuses it (an OVER window over the updates of a Top-N); the stream has no result a batch can match
SELECT
    CAST(seller AS VARCHAR) AS seller,
    CAST(trunc(avg(price) OVER (PARTITION BY seller ORDER BY dateTime
        ROWS BETWEEN 10 PRECEDING AND CURRENT ROW)) AS BIGINT) AS avg_price
FROM (
    SELECT A.id, A.seller, B.price, B.dateTime,
        row_number() OVER (PARTITION BY A.id, A.seller ORDER BY B.price DESC, B.seq) AS rownum
    FROM auction A JOIN bid B
        ON A.id = B.auction AND B.dateTime BETWEEN A.dateTime AND A.expires
) WHERE rownum <= 1;
