-- WITH: common table expressions are views of one statement. Each reads
-- the ones before it; a name hides a table of that name for the statement
-- only; a column list renames the query's columns; a window's rowtime
-- stays a time attribute, so windows cascade through WITH.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  usr STRING,
  amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');

WITH big AS (SELECT ts, usr, amount FROM clicks WHERE amount > 30),
     per_minute (u, rt, total) AS (
       SELECT usr, TUMBLE_ROWTIME(ts, INTERVAL '1' MINUTE), SUM(amount)
       FROM big GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE))
SELECT u, TUMBLE_END(rt, INTERVAL '2' MINUTE) AS e, SUM(total) AS total
FROM per_minute GROUP BY u, TUMBLE(rt, INTERVAL '2' MINUTE);

-- the name clicks means the expression inside this statement only
WITH clicks AS (SELECT usr, amount FROM clicks WHERE usr = 'bob' AND amount > 40)
SELECT usr, amount FROM clicks;
SELECT COUNT(*) AS n, TUMBLE_START(ts, INTERVAL '10' MINUTE) AS s FROM clicks GROUP BY TUMBLE(ts, INTERVAL '10' MINUTE);

-- a window TVF over an expression, and WITH inside a FROM subquery
WITH alice AS (SELECT ts, amount FROM clicks WHERE usr = 'alice')
SELECT window_start, COUNT(*) AS n, SUM(amount) AS total
FROM TABLE(TUMBLE(TABLE alice, DESCRIPTOR(ts), INTERVAL '2' MINUTE))
GROUP BY window_start, window_end;
SELECT * FROM (WITH w (who) AS (SELECT usr FROM clicks WHERE amount > 47) SELECT who FROM w) AS s;

-- a view made of a WITH query, and INSERT INTO ... WITH
CREATE VIEW carols AS WITH c AS (SELECT usr, amount FROM clicks WHERE usr = 'carol') SELECT amount FROM c WHERE amount > 40;
SELECT * FROM carols;
CREATE TABLE totals (usr STRING, amount DOUBLE) WITH ('connector' = 'print');
INSERT INTO totals WITH a AS (SELECT usr, amount FROM clicks WHERE amount > 45) SELECT usr, amount FROM a;
