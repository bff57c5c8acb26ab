-- Flink's conditional and conversion functions (sql_functions.yml,
-- conditional and conversion), with their documented examples. The second
-- row of one_row.csv is NULL in s, i and flag.
CREATE TABLE r (ts TIMESTAMP(3), s STRING, i INT, flag BOOLEAN, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/one_row.csv', 'format' = 'csv');

-- CASE value WHEN value1_1, value1_2 THEN ...: "resultX when the first
-- time value is contained in (valueX_1, valueX_2, ...)"
SELECT i, CASE i WHEN 1, 12 THEN 'one or twelve' WHEN 13, 14, 15 THEN 'teens' ELSE 'other' END AS c,
       CASE s WHEN 'x', 'a1' THEN 1 END AS c2
FROM r;

-- "NULLIF(5, 5) returns NULL; NULLIF(5, 0) returns 5"; "COALESCE(NULL,
-- 'default')" returns 'default'; "IF(5 > 3, 5, 3) returns 5"; "IFNULL(
-- nullable_column, 5) returns never NULL"
SELECT NULLIF(5, 5) AS n1, NULLIF(5, 0) AS n2, COALESCE(NULL, 'default') AS c1,
       COALESCE(s, 'default') AS c2, IF(5 > 3, 5, 3) AS if1, IFNULL(i, 5) AS ifn
FROM r;

-- GREATEST / LEAST: "Returns NULL if any argument is NULL"; the arguments'
-- common type
SELECT GREATEST(1, 5, 3) AS g, LEAST(1, 5, 3) AS l, GREATEST(i, 3, 20) AS g_col,
       LEAST(i, 3.5) AS l_dec, GREATEST('apple', s, 'b') AS g_str,
       LEAST(ts, TIMESTAMP '2024-02-01 00:00:00') AS l_ts,
       LEAST(i + 1, i * 2) AS l_exprs, GREATEST(i * 2, i + 1, i - 1) AS g_exprs
FROM r;

-- IS_ALPHA / IS_DIGIT / IS_DECIMAL: "true if all characters in string are
-- letter/digit", "true if string can be parsed to a valid numeric"; FALSE
-- for NULL
SELECT s, IS_ALPHA('abc') AS a1, IS_ALPHA(s) AS a2, IS_DIGIT('123') AS d1, IS_DIGIT(s) AS d2,
       IS_DECIMAL('-1.5e3') AS dec1, IS_DECIMAL('1.2.3') AS dec2, IS_DECIMAL(s) AS dec3, IS_ALPHA('') AS empty
FROM r;

-- TRY_CAST: "TRY_CAST('42' AS INT) returns 42; TRY_CAST(NULL AS STRING)
-- returns NULL of type STRING; TRY_CAST('non-number' AS INT) returns NULL
-- of type INT; COALESCE(TRY_CAST('non-number' AS INT), 0) returns 0 of
-- type INT"
SELECT TRY_CAST('42' AS INT) AS t1, TRY_CAST(NULL AS STRING) AS t2, TRY_CAST('non-number' AS INT) AS t3,
       COALESCE(TRY_CAST('non-number' AS INT), 0) AS t4, TRY_CAST(s AS INT) AS t5,
       TRY_CAST(s AS DATE) AS t6, TRY_CAST(i AS STRING) AS t7, CAST('42' AS INT) AS c
FROM r;

-- TYPEOF: "the string representation of the input expression's data type"
SELECT TYPEOF(i) AS t_col, TYPEOF(1) AS t_lit, TYPEOF(s) AS t_str, TYPEOF(s, TRUE) AS t_ser,
       TYPEOF(ts) AS t_ts, TYPEOF(NULL) AS t_null
FROM r WHERE i = 12;
