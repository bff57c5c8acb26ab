-- wsql: Nexmark q12 in its legacy form (group window functions), as the
-- nexmark project's nexmark-flink/src/main/resources/queries/q12.sql wrote it before
-- the project moved it to window TVFs (its sink was then named discard_sink);
-- q12_tvf.sql is the current form. Run after ddl.sql (the event table and views).
-- Changed from the original: the sink's 'connector' = 'blackhole' is 'print',
-- so the test sees the rows. Nothing else.

-- -------------------------------------------------------------------------------------------------
-- Query 12: Processing Time Windows (Not in original suite)
-- -------------------------------------------------------------------------------------------------
-- How many bids does a user make within a fixed processing time limit?
-- Illustrates working in processing time window.
--
-- Group bids by the same user into processing time windows of 10 seconds.
-- Emit the count of bids per window.
-- -------------------------------------------------------------------------------------------------

CREATE TABLE discard_sink (
  bidder BIGINT,
  bid_count BIGINT,
  starttime TIMESTAMP(3),
  endtime TIMESTAMP(3)
) WITH (
  'connector' = 'print'
);

INSERT INTO discard_sink
SELECT
    B.bidder,
    count(*) as bid_count,
    TUMBLE_START(B.p_time, INTERVAL '10' SECOND) as starttime,
    TUMBLE_END(B.p_time, INTERVAL '10' SECOND) as endtime
FROM (SELECT *, PROCTIME() as p_time FROM bid) B
GROUP BY B.bidder, TUMBLE(B.p_time, INTERVAL '10' SECOND);
