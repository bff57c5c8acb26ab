SET 'table.local-time-zone' = 'Asia/Shanghai';
SET 'pipeline.name' = 'it''s mine';
SET;
RESET 'table.local-time-zone';
RESET;
SHOW TABLES;
show views;
SHOW FUNCTIONS;
DESCRIBE clicks;
DESC `my events`;
EXPLAIN SELECT usr, COUNT(*) FROM clicks GROUP BY usr;
EXPLAIN PLAN FOR
  INSERT INTO sink SELECT usr FROM clicks;
INSERT INTO sink SELECT * FROM clicks WHERE amount > 10;
INSERT OVERWRITE sink (usr, n)
SELECT usr, COUNT(*) AS n
FROM clicks
GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)
;
SHOW TABLES LIKE 'c%';
SHOW VIEWS NOT ILIKE 'Per%';
SHOW COLUMNS FROM clicks;
show columns in `my events` not like '%s';
SHOW CREATE TABLE clicks;
SHOW CREATE VIEW per_minute;
SHOW CURRENT CATALOG;
SHOW CURRENT DATABASE;
SHOW CATALOGS;
SHOW DATABASES;
USE default_database;
USE CATALOG default_catalog
