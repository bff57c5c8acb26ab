-- An interval has no column type in wsql yet: alone it is refused, at its position.
SELECT INTERVAL '2' DAY * 2 AS four_days;
