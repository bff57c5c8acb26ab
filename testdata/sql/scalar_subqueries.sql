-- Scalar subqueries: a query in parentheses used as a value, in the
-- select list, WHERE and HAVING, correlated or not.
SELECT * FROM bid WHERE price > (SELECT AVG(price) FROM bid);

SELECT b.*, (SELECT MAX(price) FROM bid b2 WHERE b2.auction = b.auction) AS top FROM bid b;

SELECT auction, COUNT(*) FROM bid GROUP BY auction HAVING COUNT(*) > (SELECT COUNT(*) / 10 FROM bid);

SELECT price - ((SELECT name FROM person WHERE id = 5)) FROM bid
