-- Flink's comparison and logical forms MySQL's grammar lacks, with the
-- examples of Flink's function list (sql_functions.yml, comparison and
-- logical). The second row of one_row.csv is NULL in s, i and flag.
CREATE TABLE r (ts TIMESTAMP(3), s STRING, i INT, flag BOOLEAN, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/one_row.csv', 'format' = 'csv');

-- "1 IS DISTINCT FROM NULL returns TRUE; NULL IS DISTINCT FROM NULL
-- returns FALSE"; "1 IS NOT DISTINCT FROM NULL returns FALSE; NULL IS NOT
-- DISTINCT FROM NULL returns TRUE"
SELECT i, 1 IS DISTINCT FROM NULL AS d1, NULL IS DISTINCT FROM NULL AS d2,
       1 IS NOT DISTINCT FROM NULL AS n1, NULL IS NOT DISTINCT FROM NULL AS n2,
       i IS DISTINCT FROM 12 AS col_d, i IS NOT DISTINCT FROM CAST(NULL AS INT) AS col_n
FROM r;

-- "12 BETWEEN 15 AND 12 returns FALSE; 12 BETWEEN SYMMETRIC 15 AND 12
-- returns TRUE; 12 BETWEEN 10 AND NULL returns UNKNOWN; 12 BETWEEN NULL
-- AND 10 returns FALSE; 12 BETWEEN SYMMETRIC NULL AND 12 returns UNKNOWN"
SELECT 12 BETWEEN 15 AND 12 AS b1, 12 BETWEEN SYMMETRIC 15 AND 12 AS b2,
       12 BETWEEN 10 AND NULL AS b3, 12 BETWEEN NULL AND 10 AS b4,
       12 BETWEEN SYMMETRIC NULL AND 12 AS b5, 12 BETWEEN ASYMMETRIC 10 AND 15 AS b6,
       i BETWEEN SYMMETRIC 20 AND 10 AS col
FROM r;

-- "12 NOT BETWEEN 15 AND 12 returns TRUE; 12 NOT BETWEEN SYMMETRIC 15 AND
-- 12 returns FALSE; 12 NOT BETWEEN NULL AND 15 returns UNKNOWN; 12 NOT
-- BETWEEN 15 AND NULL returns TRUE; 12 NOT BETWEEN SYMMETRIC 12 AND NULL
-- returns UNKNOWN"
SELECT 12 NOT BETWEEN 15 AND 12 AS n1, 12 NOT BETWEEN SYMMETRIC 15 AND 12 AS n2,
       12 NOT BETWEEN NULL AND 15 AS n3, 12 NOT BETWEEN 15 AND NULL AS n4,
       12 NOT BETWEEN SYMMETRIC 12 AND NULL AS n5
FROM r WHERE i = 12;

-- SIMILAR TO: a SQL regular expression over the whole string; NULL when
-- either side is NULL
SELECT s, s SIMILAR TO '[a-z][0-9]+' AS re, s SIMILAR TO 'a%' AS pct,
       s NOT SIMILAR TO '(b|c)_' AS nre, 'a.c' SIMILAR TO 'a.c' AS dot,
       'abc' SIMILAR TO 'a.c' AS dot_literal, 'a%' SIMILAR TO 'a!%' ESCAPE '!' AS esc,
       s SIMILAR TO CAST(NULL AS STRING) AS null_pattern
FROM r;

-- IS [NOT] TRUE / FALSE / UNKNOWN: never UNKNOWN themselves
SELECT flag, flag IS TRUE AS t, flag IS NOT TRUE AS nt, flag IS FALSE AS f,
       flag IS NOT FALSE AS nf, flag IS UNKNOWN AS u, flag IS NOT UNKNOWN AS nu,
       (i > 20) IS FALSE AS cmp
FROM r;

-- logical: "true OR NULL returns TRUE", "true AND NULL returns UNKNOWN"
SELECT TRUE OR flag AS o, TRUE AND flag AS a, NOT flag AS n FROM r;
