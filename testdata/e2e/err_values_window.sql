-- A VALUES table has no time attribute: a window over it is refused.
SELECT COUNT(*)
FROM (VALUES (TIMESTAMP '2024-01-01 00:00:00', 1)) AS t(ts, x)
GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE);
