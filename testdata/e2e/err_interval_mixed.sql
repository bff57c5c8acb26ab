-- Flink refuses to add a year-month interval to a day-time one:
-- "Cannot apply '+' to arguments of type '<INTERVAL MONTH> + <INTERVAL DAY>'".
SELECT DATE '2024-01-31' + (INTERVAL '1' MONTH + INTERVAL '1' DAY) AS mixed;
