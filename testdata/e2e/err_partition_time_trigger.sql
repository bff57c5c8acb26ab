-- Nexmark q10's sink as the nexmark project declares it: its
-- 'partition-time' commit trigger needs the watermark at the sink, which
-- the filesystem sink does not see yet, so the INSERT is refused at the
-- option (the first of q10's options wsql does not take).
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
CREATE TABLE fs_sink (
  k STRING,
  v INT,
  dt STRING,
  hm STRING
) PARTITIONED BY (dt, hm) WITH (
  'connector' = 'filesystem',
  'path' = 'testdata/e2e/partitioned_out/q10',
  'format' = 'csv',
  'sink.partition-commit.trigger' = 'partition-time',
  'sink.partition-commit.delay' = '1 min',
  'sink.partition-commit.policy.kind' = 'success-file',
  'partition.time-extractor.timestamp-pattern' = '$dt $hm:00',
  'sink.rolling-policy.rollover-interval' = '1min',
  'sink.rolling-policy.check-interval' = '1min'
);
INSERT INTO fs_sink SELECT k, v, DATE_FORMAT(ts, 'yyyy-MM-dd'), DATE_FORMAT(ts, 'HH:mm') FROM events;
