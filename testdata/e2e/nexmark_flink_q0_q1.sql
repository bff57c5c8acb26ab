-- Nexmark q0 (pass through) and q1 (currency conversion) over the event
-- table and views exactly as Flink's nexmark project declares them, over
-- 200 events (184 bids) at 100 events per second of event time. Their
-- rows are those of the per-table form ('nexmark.table' = 'bid',
-- 'events.num' = '200', 'events.rate' = '100') for the same events.
CREATE TABLE datagen (
    event_type int,
    person ROW<id BIGINT, name VARCHAR, emailAddress VARCHAR, creditCard VARCHAR, city VARCHAR, state VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR>,
    auction ROW<id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT, dateTime TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra VARCHAR>,
    bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR>,
    dateTime AS CASE WHEN event_type = 0 THEN person.dateTime WHEN event_type = 1 THEN auction.dateTime ELSE bid.dateTime END,
    WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
) WITH ('connector' = 'nexmark', 'first-event.rate' = '100', 'next-event.rate' = '100', 'events.num' = '200',
    'person.proportion' = '1', 'auction.proportion' = '3', 'bid.proportion' = '46');
CREATE VIEW person AS SELECT person.id, person.name, person.emailAddress, person.creditCard, person.city, person.state, dateTime, person.extra FROM datagen WHERE event_type = 0;
CREATE VIEW auction AS SELECT auction.id, auction.itemName, auction.description, auction.initialBid, auction.reserve, dateTime, auction.expires, auction.seller, auction.category, auction.extra FROM datagen WHERE event_type = 1;
CREATE VIEW bid AS SELECT bid.auction, bid.bidder, bid.price, bid.channel, bid.url, dateTime, bid.extra FROM datagen WHERE event_type = 2;

-- q0
SELECT auction, bidder, price, dateTime, extra FROM bid;

-- q1
SELECT auction, bidder, 0.908 * price AS price, dateTime, extra FROM bid;

-- Windows over the views: the ROWs of the other kinds are read only for
-- their dateTime, so their fields are not made; the same rows again.
SELECT COUNT(*) AS bids, MAX(price) AS top, SUM(price) AS total, MAX(extra) AS extra
FROM bid GROUP BY TUMBLE(dateTime, INTERVAL '1' SECOND);
SELECT COUNT(*) AS persons, MIN(id) AS lo, MAX(name) AS name FROM person
GROUP BY TUMBLE(dateTime, INTERVAL '1' SECOND);

EXPLAIN SELECT auction, bidder, price, dateTime, extra FROM bid;
