-- CREATE TABLE ... LIKE: a table made from another's definition with
-- Flink's merging rules. By default INCLUDING ALL, OVERWRITING OPTIONS:
-- the new 'path' replaces the base's; EXCLUDING drops a feature.
CREATE TABLE clicks (
  epoch BIGINT NOT NULL,
  dt STRING,
  `user` STRING,
  n INT,
  ts AS TO_TIMESTAMP_LTZ(epoch, 3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,
  PRIMARY KEY (epoch) NOT ENFORCED
) COMMENT 'clicks by epoch' WITH (
  'connector' = 'filesystem',
  'path' = 'testdata/e2e/missing.csv',
  'format' = 'csv'
);
CREATE TABLE clicks2 WITH ('path' = 'testdata/e2e/epochs.csv') LIKE clicks;
SHOW CREATE TABLE clicks2;
CREATE TABLE plain (note STRING) WITH ('connector' = 'print') LIKE clicks (EXCLUDING ALL);
SHOW CREATE TABLE plain;
CREATE TABLE later (
  ts AS TO_TIMESTAMP_LTZ(epoch, 3) + INTERVAL '1' HOUR,
  WATERMARK FOR ts AS ts
) WITH ('path' = 'testdata/e2e/epochs.csv') LIKE clicks (OVERWRITING GENERATED, OVERWRITING WATERMARKS, EXCLUDING CONSTRAINTS);
DESCRIBE later;
SELECT `user`, COUNT(*) AS n, TUMBLE_END(ts, INTERVAL '1' MINUTE) AS wend
FROM clicks2 GROUP BY `user`, TUMBLE(ts, INTERVAL '1' MINUTE);
SELECT `user`, COUNT(*) AS n, TUMBLE_END(ts, INTERVAL '1' MINUTE) AS wend
FROM later GROUP BY `user`, TUMBLE(ts, INTERVAL '1' MINUTE);
