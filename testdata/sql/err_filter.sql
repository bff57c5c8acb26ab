SELECT (amount) FILTER (WHERE amount > 1) FROM clicks;
SELECT COUNT(*) FILTER (WHERE amount > 1) FILTER (WHERE amount > 2) FROM clicks;
SELECT COUNT(*) FILTER (WHERE amount > 1, 2) FROM clicks;
SELECT COUNT(*) FILTER (WHERE) FROM clicks;
