-- UNION ALL: one pipeline per query into the union, whose watermark is the
-- minimum of the queries'; a narrower column is cast to the common type.
CREATE TABLE web (ts TIMESTAMP(3), usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'web.csv', 'format' = 'csv');
CREATE TABLE shop (ts TIMESTAMP(3), usr STRING, amount BIGINT, WATERMARK FOR ts AS ts - INTERVAL '30' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'shop.csv', 'format' = 'csv');
CREATE TABLE totals (usr STRING, amount BIGINT) WITH ('connector' = 'print');
EXPLAIN SELECT ts, usr, amount FROM web UNION ALL SELECT ts, usr, amount FROM shop WHERE amount > 10;
EXPLAIN SELECT usr, COUNT(*) AS n
FROM (SELECT ts, usr FROM web UNION ALL SELECT ts, usr FROM shop UNION ALL SELECT ts, usr FROM web)
GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
EXPLAIN INSERT INTO totals SELECT usr, amount FROM web UNION ALL SELECT usr, amount FROM shop;
EXPLAIN SELECT usr FROM web UNION SELECT usr FROM shop;
CREATE TABLE web_untimed (ts TIMESTAMP(3), usr STRING, amount INT) WITH ('connector' = 'filesystem', 'path' = 'web.csv', 'format' = 'csv');
EXPLAIN SELECT usr FROM web UNION ALL SELECT usr FROM web_untimed;
