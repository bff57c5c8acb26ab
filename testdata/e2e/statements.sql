-- The Flink SQL client statements: DDL, views, SHOW, DESCRIBE, SET, RESET,
-- EXPLAIN and DROP, as a Flink user pastes them.
CREATE TABLE IF NOT EXISTS clicks (
  `user` STRING COMMENT 'who clicked',
  epoch BIGINT NOT NULL,
  ts AS TO_TIMESTAMP_LTZ(epoch, 3),
  amount DECIMAL(10, 2),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) COMMENT 'clicks by epoch' WITH (
  'connector' = 'filesystem',
  'path' = 'testdata/e2e/epochs.csv',
  'format' = 'csv'
);
CREATE TEMPORARY VIEW per_minute AS
SELECT `user`, TUMBLE_END(ts, INTERVAL '1' MINUTE) AS wend, COUNT(*) AS n
FROM clicks GROUP BY `user`, TUMBLE(ts, INTERVAL '1' MINUTE);
SHOW TABLES;
SHOW VIEWS;
DESCRIBE clicks;
DESC per_minute;
SET 'table.local-time-zone' = 'Asia/Shanghai';
SET 'pipeline.name' = 'clicks';
SET;
RESET 'pipeline.name';
RESET;
SET;
EXPLAIN SELECT `user`, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS wstart, COUNT(*) AS n
FROM clicks GROUP BY `user`, TUMBLE(ts, INTERVAL '1' MINUTE);
DROP VIEW per_minute;
DROP TABLE IF EXISTS nothing_here;
SHOW VIEWS;
SHOW FUNCTIONS;
