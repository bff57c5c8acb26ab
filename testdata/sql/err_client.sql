SET table.local-time-zone = 'UTC';
SET 'table.local-time-zone' 'UTC';
SET 'table.local-time-zone' = UTC;
SET '' = 'x';
RESET table.local-time-zone;
RESET 'a' 'b';
SHOW TABLE;
SHOW TABLES LIKE 'c%';
SHOW;
DESCRIBE;
DESC clicks extra;
EXPLAIN;
EXPLAIN PLAN SELECT 1;
EXPLAIN CREATE TABLE t (a INT);
EXPLAIN SELECT FROM clicks
