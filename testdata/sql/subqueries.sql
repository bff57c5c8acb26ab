-- Subqueries in FROM, with and without an alias, nested, and windows
-- cascaded through them.
SELECT s.usr, n FROM (SELECT usr, COUNT(*) AS n FROM clicks GROUP BY usr) AS s WHERE n > 1;

SELECT * FROM (SELECT usr FROM clicks) t;

SELECT usr FROM (SELECT usr, amount FROM clicks WHERE amount IN (1, 2));

SELECT usr FROM ((SELECT usr FROM clicks)) AS s;

SELECT usr
FROM (
  SELECT usr FROM (
    SELECT usr, amount * 2 AS a FROM clicks
  ) AS inner_q WHERE a BETWEEN 1 AND 10
) AS outer_q;

SELECT usr, TUMBLE_START(rt, INTERVAL '1' HOUR) AS hour_start, SUM(n) AS clicks_per_hour
FROM (
  SELECT usr, TUMBLE_ROWTIME(ts, INTERVAL '1' MINUTE) AS rt, COUNT(*) AS n
  FROM clicks
  GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)
)
GROUP BY usr, TUMBLE(rt, INTERVAL '1' HOUR);

SELECT window_start, cnt
FROM (
  SELECT window_start, window_end, COUNT(*) AS cnt
  FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
  GROUP BY window_start, window_end
) AS w
WHERE cnt > 10;

INSERT INTO sink SELECT usr FROM (SELECT usr FROM clicks) AS s;

CREATE VIEW v AS SELECT n FROM (SELECT COUNT(*) AS n FROM clicks) AS c;

EXPLAIN SELECT * FROM (SELECT usr FROM clicks)
