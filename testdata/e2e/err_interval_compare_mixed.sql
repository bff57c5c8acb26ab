-- Flink compares intervals of one kind only.
SELECT INTERVAL '1' MONTH > INTERVAL '30' DAY AS longer;
