-- The catalog statements of Flink's SQL client: SHOW CREATE, SHOW COLUMNS,
-- SHOW TABLES/VIEWS with LIKE, the one catalog and database, USE.
CREATE TABLE clicks (
  `user` STRING COMMENT 'who clicked',
  epoch BIGINT NOT NULL,
  ts AS TO_TIMESTAMP_LTZ(epoch, 3),
  amount DECIMAL(10, 2),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) COMMENT 'clicks by epoch' WITH (
  'path' = 'testdata/e2e/epochs.csv',
  'connector' = 'filesystem',
  'format' = 'csv'
);
CREATE TABLE counts (`user` STRING, n BIGINT) WITH ('connector' = 'print');
CREATE VIEW per_minute (who, wend, n) AS
SELECT `user`, TUMBLE_END(ts, INTERVAL '1' MINUTE), COUNT(*)
FROM clicks GROUP BY `user`, TUMBLE(ts, INTERVAL '1' MINUTE);
SHOW CREATE TABLE clicks;
SHOW CREATE TABLE counts;
SHOW CREATE VIEW per_minute;
SHOW COLUMNS FROM clicks;
SHOW COLUMNS IN clicks LIKE '%s';
SHOW COLUMNS FROM per_minute NOT LIKE 'w%';
SHOW TABLES LIKE 'c%';
SHOW TABLES NOT LIKE 'c%';
SHOW TABLES ILIKE 'C_UNTS';
SHOW VIEWS LIKE 'per%';
SHOW CURRENT CATALOG;
SHOW CURRENT DATABASE;
SHOW CATALOGS;
SHOW DATABASES;
USE default_database;
USE CATALOG default_catalog;
SHOW TABLES;
CREATE TEMPORARY VIEW big AS SELECT `user`, amount FROM clicks WHERE amount > 10;
SHOW CREATE VIEW big;
