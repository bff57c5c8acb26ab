-- A changelog written to Kafka as debezium-json and read back: the counts
-- of a GROUP BY without a window are an update stream; the sink writes
-- each change as Flink's serializer does (+I and +U as "c" with after, -U
-- and -D as "d" with before), and the debezium-json source reads them
-- back as +I and -D, which a GROUP BY over them retracts to the same
-- counts.
CREATE TABLE clicks (
  usr STRING,
  url STRING
) WITH (
  'connector' = 'kafka',
  'topic' = 'clicks',
  'properties.bootstrap.servers' = '${brokers}',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset',
  'format' = 'json'
);

CREATE TABLE click_counts (
  usr STRING,
  n   BIGINT
) WITH (
  'connector' = 'kafka',
  'topic' = 'click_counts',
  'properties.bootstrap.servers' = '${brokers}',
  'value.format' = 'debezium-json'
);

CREATE TABLE click_changes (
  usr STRING,
  n   BIGINT
) WITH (
  'connector' = 'kafka',
  'topic' = 'click_counts',
  'properties.bootstrap.servers' = '${brokers}',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset',
  'format' = 'debezium-json'
);

INSERT INTO click_counts SELECT usr, COUNT(*) FROM clicks GROUP BY usr;

SELECT usr, SUM(n) AS n, COUNT(*) AS live_rows FROM click_changes GROUP BY usr;
