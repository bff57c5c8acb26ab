-- a view keeps its query's text exactly as written, comments included
CREATE VIEW per_user AS
SELECT usr, COUNT(*) AS n /* clicks */
FROM clicks
GROUP BY usr;

CREATE TEMPORARY VIEW IF NOT EXISTS `big spenders` (who, spent)
COMMENT 'users over 100'
AS SELECT usr, SUM(amount) FROM clicks GROUP BY usr HAVING SUM(amount) > 100;

DROP VIEW per_user;
DROP TEMPORARY VIEW IF EXISTS `big spenders`;
DROP TABLE clicks;
drop temporary table if exists `select`
