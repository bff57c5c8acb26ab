-- A TUMBLE per key over a JSON topic of three partitions, read from the
-- earliest offset to the end the topic had when the read started; the
-- results written to another topic as JSON, keyed by the user.
CREATE TABLE clicks (
  `user` STRING,
  url    STRING,
  ts     TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH (
  'connector' = 'kafka',
  'topic' = 'clicks',
  'properties.bootstrap.servers' = '${brokers}',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset',
  'format' = 'json'
);

CREATE TABLE counts (
  `user`       STRING,
  window_start TIMESTAMP(3),
  n            BIGINT
) WITH (
  'connector' = 'kafka',
  'topic' = 'counts',
  'properties.bootstrap.servers' = '${brokers}',
  'key.format' = 'csv',
  'key.fields' = 'user',
  'value.format' = 'json'
);

SELECT `user`, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS window_start, COUNT(*) AS n
FROM clicks
GROUP BY `user`, TUMBLE(ts, INTERVAL '1' MINUTE);

INSERT INTO counts
SELECT `user`, TUMBLE_START(ts, INTERVAL '1' MINUTE), COUNT(*)
FROM clicks
GROUP BY `user`, TUMBLE(ts, INTERVAL '1' MINUTE);
