-- COUNT_WINDOW(n): every 3 rows of a key form a window (wsql extension).
SELECT usr, COUNT(*) AS n, SUM(amount) AS total
FROM clicks
GROUP BY usr, COUNT_WINDOW(3);

-- COUNT_WINDOW(n, slide): every 2 rows, the last 5; any case, keys after it.
SELECT usr, page, SUM(amount)
FROM clicks
GROUP BY count_window(5, 2), usr, page;

-- A slide equal to the size is the tumbling window, printed as written.
SELECT COUNT(*) FROM clicks GROUP BY (COUNT_WINDOW(10, 10))
