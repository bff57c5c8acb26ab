-- IN, BETWEEN, LIKE, CASE, IS NULL, EXTRACT, TRIM, common functions and
-- interval arithmetic.
SELECT usr FROM clicks
WHERE usr IN ('alice', 'bob') AND amount NOT IN (1, 2.5, -3)
  AND amount BETWEEN 10 AND 20 OR amount NOT BETWEEN 0 AND 1 + 1
  AND NOT usr IN ('eve')
  AND (amount BETWEEN 1 AND 2) IS NOT NULL;

SELECT usr LIKE 'a%' AS a, usr NOT LIKE '%\_x' ESCAPE '\' AS b,
       usr LIKE 'a' || '%', UPPER(usr) LIKE LOWER('X%') ESCAPE '!'
FROM clicks
WHERE usr LIKE 'a!%%' ESCAPE '!' AND usr IS NOT NULL AND (amount IS NULL OR NOT (amount > 1));

SELECT CASE usr WHEN 'alice' THEN 1 WHEN 'bob' THEN 2 ELSE 0 END AS simple,
       CASE WHEN amount > 100 THEN 'big' WHEN amount IS NULL THEN 'none' END AS searched,
       CASE WHEN usr IN ('a', 'b') THEN CASE WHEN amount BETWEEN 1 AND 2 THEN 'x' END ELSE 'y' END
FROM clicks;

SELECT EXTRACT(YEAR FROM ts), EXTRACT(quarter FROM ts), EXTRACT(MONTH FROM ts),
       EXTRACT(WEEK FROM ts), EXTRACT(DAY FROM ts), EXTRACT(DOY FROM ts), EXTRACT(DOW FROM ts),
       EXTRACT(HOUR FROM ts), EXTRACT(MINUTE FROM ts), EXTRACT(SECOND FROM ts),
       EXTRACT(MILLISECOND FROM ts), EXTRACT(EPOCH FROM ts), EXTRACT(MILLENNIUM FROM ts),
       EXTRACT(HOUR FROM ts + INTERVAL '1' HOUR) * 60
FROM clicks;

SELECT TRIM(usr), TRIM(BOTH 'x' FROM usr), TRIM(LEADING FROM usr), TRIM(TRAILING 'ab' FROM usr),
       TRIM('a' FROM usr), TRIM(FROM usr), TRIM(LEADING ' ' FROM usr)
FROM clicks;

SELECT SUBSTRING(usr FROM 2 FOR 3), SUBSTRING(usr, 2), POSITION('a' IN usr), CHAR_LENGTH(usr),
       UPPER(usr), LOWER(usr), CONCAT(usr, '-', usr), usr || '!', CONCAT(usr, 'a') || 'b',
       COALESCE(usr, 'none'), NULLIF(usr, ''), IF(amount > 1, 'a', 'b'),
       ABS(amount), ROUND(amount), ROUND(amount, 2), FLOOR(amount), CEIL(amount),
       MOD(CAST(amount AS INT), 7), MOD(3, 2) % 2, POWER(amount, 2), SQRT(amount),
       YEAR(ts), QUARTER(ts), MONTH(ts), DAYOFMONTH(ts), HOUR(ts), MINUTE(ts), SECOND(ts),
       DATE_FORMAT(ts, 'yyyy-MM-dd'), TO_TIMESTAMP('2024-01-02 03:04:05'),
       TO_TIMESTAMP_LTZ(1700000000000, 3), UNIX_TIMESTAMP(), UNIX_TIMESTAMP('2024-01-02 03:04:05'),
       UNIX_TIMESTAMP('2024-01-02', 'yyyy-MM-dd'), CURRENT_TIMESTAMP, MY_UDF(usr, 1)
FROM clicks;

SELECT ts + INTERVAL '1' HOUR, ts - INTERVAL '30' SECOND, ts - INTERVAL '1 12' DAY TO HOUR,
       CURRENT_TIMESTAMP - INTERVAL '5' MINUTE
FROM clicks
WHERE ts BETWEEN CURRENT_TIMESTAMP - INTERVAL '1' DAY AND CURRENT_TIMESTAMP
