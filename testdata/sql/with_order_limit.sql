-- WITH: common table expressions, with and without column lists, the
-- later ones reading the earlier ones; ORDER BY and LIMIT end a query.
WITH a AS (SELECT usr, ts FROM clicks WHERE usr <> 'x'),
     b(u, t) AS (SELECT usr, ts FROM a)
SELECT u, t FROM b ORDER BY t, u LIMIT 3;
SELECT * FROM clicks LIMIT 3;
SELECT * FROM clicks FETCH FIRST 2 ROWS ONLY;
SELECT * FROM clicks ORDER BY ts DESC;
INSERT INTO sink_t WITH a AS (SELECT usr FROM clicks) SELECT usr FROM a;
SELECT * FROM (WITH w AS (SELECT 1 AS x) SELECT * FROM w) AS s;
CREATE VIEW v AS WITH w AS (SELECT usr FROM clicks) SELECT usr FROM w LIMIT 5;
SELECT usr, ts FROM clicks ORDER BY 2, 1 DESC;
