-- Flink's OVER-only functions without OVER reach the planner, which says
-- why they do not run; with OVER, OVER itself is refused.
SELECT RANK(), ROW_NUMBER(), LAG(amount, 1), NTILE(4) FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
