-- Nexmark q9 (winning bids): per auction, its highest bid among those
-- between its start and expiry, the earliest of equal ones (Top-1 over a
-- regular join; on equal prices and times the first to arrive, as Flink's
-- Top-N keeps it).
SELECT id, itemName, description, initialBid, reserve, dateTime, expires, seller, category, extra,
    auction, bidder, price, bid_dateTime, bid_extra
FROM (
    SELECT A.id, A.itemName, A.description, A.initialBid, A.reserve, A.dateTime, A.expires,
        A.seller, A.category, A.extra,
        B.auction, B.bidder, B.price, B.dateTime AS bid_dateTime, B.extra AS bid_extra,
        row_number() OVER (PARTITION BY A.id ORDER BY B.price DESC, B.dateTime ASC, B.seq) AS rownum
    FROM auction A JOIN bid B
        ON A.id = B.auction AND B.dateTime BETWEEN A.dateTime AND A.expires
)
WHERE rownum <= 1;
