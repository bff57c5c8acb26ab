-- UNION ALL of two streams with different speeds and lateness. web's rows
-- come every few seconds, 5 s out of order at most; shop's rows come
-- seldom and up to 30 s late (its last row is later still, and dropped by
-- the window over the union). The union's watermark is the minimum of the
-- two, so a window over the union waits for the slower one.
CREATE TABLE web (ts TIMESTAMP(3), usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/union_web.csv', 'format' = 'csv');
CREATE TABLE shop (ts TIMESTAMP(3), usr STRING, amount BIGINT, WATERMARK FOR ts AS ts - INTERVAL '30' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/union_shop.csv', 'format' = 'csv');

-- the rows of both, ordered by the watermark each arrived under, then by
-- query; amount is INT in web and BIGINT in shop: the union's is BIGINT
SELECT ts, usr, amount, 'web' AS src FROM web
UNION ALL
SELECT ts, usr, amount, 'shop' FROM shop;

-- the flagship: a window over the union of both
SELECT usr, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS m, COUNT(*) AS n, SUM(amount) AS total
FROM (SELECT ts, usr, amount FROM web UNION ALL SELECT ts, usr, amount FROM shop)
GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);

-- the same through a view and a window TVF
CREATE VIEW orders AS
SELECT ts, usr, amount FROM web WHERE amount > 2
UNION ALL
SELECT ts, usr, amount FROM shop;
SELECT window_start, COUNT(*) AS n, MAX(amount) AS biggest
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end;

-- the same table twice, and three queries
SELECT usr, TUMBLE_END(ts, INTERVAL '2' MINUTE) AS e, COUNT(*) AS n
FROM (SELECT ts, usr FROM web UNION ALL SELECT ts, usr FROM web UNION ALL SELECT ts, UPPER(usr) FROM shop)
GROUP BY usr, TUMBLE(ts, INTERVAL '2' MINUTE);

-- windowed aggregates as queries of the union, and a window over them
SELECT TUMBLE_START(rt, INTERVAL '2' MINUTE) AS s, SUM(n) AS n, COUNT(*) AS per_minute_rows
FROM (
  SELECT usr, TUMBLE_ROWTIME(ts, INTERVAL '1' MINUTE) AS rt, COUNT(*) AS n FROM web GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)
  UNION ALL
  SELECT usr, TUMBLE_ROWTIME(ts, INTERVAL '1' MINUTE) AS rt, COUNT(*) AS n FROM shop GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)
) GROUP BY TUMBLE(rt, INTERVAL '2' MINUTE);

-- INSERT INTO a sink from a union
CREATE TABLE totals (usr STRING, amount BIGINT) WITH ('connector' = 'print');
INSERT INTO totals SELECT usr, amount FROM web WHERE usr = 'carol' UNION ALL SELECT usr, amount FROM shop WHERE usr = 'carol';

-- UNION (distinct) is UNION ALL then a GroupAggregate: an update stream
SELECT usr FROM web UNION SELECT usr FROM shop;

-- a union in a statement set reads its own tables, the other INSERT its own
-- read of web (into a blackhole: the two run concurrently)
CREATE TABLE web_rows (usr STRING, amount INT) WITH ('connector' = 'blackhole');
EXECUTE STATEMENT SET
BEGIN
  INSERT INTO totals SELECT usr, amount FROM web WHERE usr = 'bob' UNION ALL SELECT usr, amount FROM shop WHERE usr = 'bob';
  INSERT INTO web_rows SELECT usr, amount FROM web WHERE amount > 10;
END;

-- without a watermark on every query the union has none: its rows pass as
-- they come, the queries read one after the other
CREATE TABLE web_untimed (ts TIMESTAMP(3), usr STRING, amount INT)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/union_web.csv', 'format' = 'csv');
SELECT usr, amount FROM shop WHERE amount >= 500 UNION ALL SELECT usr, amount FROM web_untimed WHERE amount > 10;
EXPLAIN STATEMENT SET BEGIN
  INSERT INTO totals SELECT usr, amount FROM web UNION ALL SELECT usr, amount FROM shop;
  INSERT INTO web_rows SELECT usr, amount FROM web WHERE amount > 10;
END;

-- WITH before a union: its expressions are read by every query
WITH carol_web AS (SELECT ts, usr, amount FROM web WHERE usr = 'carol')
SELECT usr, amount FROM carol_web UNION ALL SELECT usr, amount FROM shop WHERE usr = 'carol';
