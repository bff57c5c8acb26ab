-- wsql: Nexmark q10 as the nexmark project's nexmark-flink/src/main/resources/queries/q10.sql writes it;
-- run after ddl.sql (the event table and views).
-- Changed from the original: the sink's WITH options (the 'filesystem' connector
-- writing partitioned csv files under a path with the benchmark's ${NEXMARK_DIR}
-- and ${SUBMIT_TIME} placeholders, and its commit and rolling policies) are
-- replaced by 'connector' = 'print', so the test sees the rows. Nothing else.

-- -------------------------------------------------------------------------------------------------
-- Query 10: Log to File System (Not in original suite)
-- -------------------------------------------------------------------------------------------------
-- Log all events to file system. Illustrates windows streaming data into partitioned file system.
--
-- Every minute, save all events from the last period into partitioned log files.
-- -------------------------------------------------------------------------------------------------

CREATE TABLE nexmark_q10 (
  auction  BIGINT,
  bidder  BIGINT,
  price  BIGINT,
  `dateTime`  TIMESTAMP(3),
  extra  VARCHAR,
  dt STRING,
  hm STRING
) PARTITIONED BY (dt, hm) WITH (
  'connector' = 'print'
);

INSERT INTO nexmark_q10
SELECT auction, bidder, price, `dateTime`, extra, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd'), DATE_FORMAT(`dateTime`, 'HH:mm')
FROM bid;
