-- The Nexmark suite's ddl.sql over the events wsql's nexmark connector
-- generated: datagen holds its physical columns as wsql exported them, and
-- seq, each event's place in the stream (0 for the first).
--
-- dateTime is ddl.sql's computed column. behind is true for an event that
-- arrives at or behind the watermark, which ddl.sql declares as dateTime -
-- INTERVAL '4' SECOND over the events before it: only such an event can be
-- late for a window or a time-bounded join. The check compares an event-time
-- query only when no event is behind.
CREATE VIEW events AS
SELECT *,
    dateTime <= max(dateTime) OVER (ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
        - INTERVAL 4 SECOND AS behind
FROM (
    SELECT *,
        CASE
            WHEN event_type = 0 THEN person.dateTime
            WHEN event_type = 1 THEN auction.dateTime
            ELSE bid.dateTime
        END AS dateTime
    FROM datagen
);

-- The views of ddl.sql, with seq for the references that need the order
-- of arrival (ties in Top-N and deduplication).
CREATE VIEW person AS
SELECT
    person.id AS id,
    person.name AS name,
    person.emailAddress AS emailAddress,
    person.creditCard AS creditCard,
    person.city AS city,
    person.state AS state,
    dateTime,
    person.extra AS extra,
    seq
FROM events WHERE event_type = 0;

CREATE VIEW auction AS
SELECT
    auction.id AS id,
    auction.itemName AS itemName,
    auction.description AS description,
    auction.initialBid AS initialBid,
    auction.reserve AS reserve,
    dateTime,
    auction.expires AS expires,
    auction.seller AS seller,
    auction.category AS category,
    auction.extra AS extra,
    seq
FROM events WHERE event_type = 1;

CREATE VIEW bid AS
SELECT
    bid.auction AS auction,
    bid.bidder AS bidder,
    bid.price AS price,
    bid.channel AS channel,
    bid.url AS url,
    dateTime,
    bid.extra AS extra,
    seq
FROM events WHERE event_type = 2;
