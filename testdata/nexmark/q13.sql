-- wsql: Nexmark q13 as the nexmark project's nexmark-flink/src/main/resources/queries/q13.sql writes it;
-- run after ddl.sql (the event table and views).
-- Changed from the original: the sink's 'connector' = 'blackhole' is 'print',
-- so the test sees the rows, and the side input's 'connector.path' is the
-- file the nexmark project's SideInputGenerator writes for 10,000 rows
-- (lines "i,i" for i from 0 to 9999), shipped in testdata/nexmark/data,
-- instead of the one under ${FLINK_HOME}. Nothing else.

-- -------------------------------------------------------------------------------------------------
-- Query 13: Bounded Side Input Join (Not in original suite)
-- -------------------------------------------------------------------------------------------------
-- Joins a stream to a bounded side input, modeling basic stream enrichment.
-- -------------------------------------------------------------------------------------------------

-- TODO: use the new "filesystem" connector once FLINK-17397 is done
CREATE TABLE side_input (
  key BIGINT,
  `value` VARCHAR
) WITH (
  'connector.type' = 'filesystem',
  'connector.path' = 'testdata/nexmark/data/side_input.txt',
  'format.type' = 'csv'
);

CREATE TABLE nexmark_q13 (
  auction  BIGINT,
  bidder  BIGINT,
  price  BIGINT,
  `dateTime`  TIMESTAMP(3),
  `value`  VARCHAR
) WITH (
  'connector' = 'print'
);

INSERT INTO nexmark_q13
SELECT
    B.auction,
    B.bidder,
    B.price,
    B.`dateTime`,
    S.`value`
FROM (SELECT *, PROCTIME() as p_time FROM bid) B
JOIN side_input FOR SYSTEM_TIME AS OF B.p_time AS S
ON mod(B.auction, 10000) = S.key;
