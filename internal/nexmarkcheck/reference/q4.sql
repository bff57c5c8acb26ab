-- Nexmark q4 (average price for a category): the highest bid of each
-- auction among the bids between its start and its expiry (a regular join:
-- expires is no time attribute), averaged per category. The stream updates
-- both aggregates as bids come; materialised, they are the batch result.
-- AVG of a BIGINT is a BIGINT in Flink: the sum divided by the count,
-- truncated.
SELECT category AS id, CAST(trunc(sum(final) / count(final)) AS BIGINT) AS final
FROM (
    SELECT max(B.price) AS final, A.category
    FROM auction A JOIN bid B
        ON A.id = B.auction AND B.dateTime BETWEEN A.dateTime AND A.expires
    GROUP BY A.id, A.category
) Q
GROUP BY category;
