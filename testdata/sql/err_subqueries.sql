SELECT usr FROM clicks WHERE usr IN (SELECT usr FROM admins);
SELECT usr FROM (SELECT usr FROM clicks) AS s JOIN users AS u ON s.usr = u.id;
SELECT usr FROM (SELECT usr FROM clicks, users) AS s;
SELECT usr FROM (SELECT usr FROM clicks ORDER BY usr) AS s;
SELECT usr FROM (SELECT usr FROM clicks UNION SELECT usr FROM admins) AS s;
SELECT usr FROM (SELECT usr FROM (SELECT usr FROM clicks LIMIT 5) AS a) AS b;
SELECT usr FROM (SELECT usr, TUMBLE(ts, INTERVAL '1' MINUTE) FROM clicks) AS s;
SELECT EXISTS (SELECT 1 FROM clicks)
