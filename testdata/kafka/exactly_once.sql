-- An exactly-once sink (Kafka transactions): without checkpoints its one
-- transaction commits when the query ends, and a read_committed consumer
-- sees every row once. The input's record timestamps and keys are read
-- as metadata, and a topic-pattern finds the input topics.
CREATE TABLE readings (
  sensor   STRING,
  celsius  DOUBLE,
  ts       TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
  src      STRING METADATA FROM 'topic' VIRTUAL,
  WATERMARK FOR ts AS ts
) WITH (
  'connector' = 'kafka',
  'topic-pattern' = 'readings-.*',
  'properties.bootstrap.servers' = '${brokers}',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset',
  'value.format' = 'csv'
);

CREATE TABLE hourly (
  sensor  STRING,
  hour    TIMESTAMP(3),
  avg_c   DOUBLE,
  sources BIGINT
) WITH (
  'connector' = 'kafka',
  'topic' = 'hourly',
  'properties.bootstrap.servers' = '${brokers}',
  'format' = 'json',
  'sink.delivery-guarantee' = 'exactly-once',
  'sink.transactional-id-prefix' = 'hourly-job'
);

INSERT INTO hourly
SELECT sensor, TUMBLE_START(ts, INTERVAL '1' HOUR), AVG(celsius), COUNT(DISTINCT src)
FROM readings
GROUP BY sensor, TUMBLE(ts, INTERVAL '1' HOUR);
