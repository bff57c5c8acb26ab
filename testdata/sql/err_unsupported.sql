INSERT INTO sink SELECT * FROM clicks;
SET 'table.local-time-zone' = 'UTC';
SELECT usr FROM clicks ORDER BY usr;
SELECT usr FROM clicks JOIN users ON clicks.usr = users.id;
SELECT usr FROM clicks LIMIT 10;
SELECT usr FROM clicks WHERE usr IN ('a', 'b');
SHOW TABLES;
CREATE VIEW v AS SELECT * FROM clicks;
SELECT * FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
