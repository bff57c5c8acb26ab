-- Nexmark q20 (expand bid with auction): the bids on auctions of category
-- 10, each with its auction (an inner join of append-only streams).
SELECT
    B.auction, B.bidder, B.price, B.channel, B.url, B.dateTime, B.extra,
    A.itemName, A.description, A.initialBid, A.reserve, A.dateTime, A.expires, A.seller, A.category, A.extra
FROM bid AS B JOIN auction AS A ON B.auction = A.id
WHERE A.category = 10;
