-- Flink's regular-expression functions with Java's regex semantics
-- (Flink's sql_functions.yml examples cited per line).
-- REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)', 2) returns "bar";
-- 'foobar'.regexpReplace('oo|ar', '') returns "fb".
SELECT REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)', 2) AS extract_doc,
       REGEXP_REPLACE('foobar', 'oo|ar', '') AS replace_doc,
       REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)') AS whole_match,
       REGEXP_EXTRACT('foothebar', 'foo(.*?)(bar)', 3) AS no_such_group,
       REGEXP_EXTRACT('foothebar', 'x(y)', 1) AS no_match,
       REGEXP_EXTRACT('foothebar', '(', 1) AS invalid_pattern;

-- REGEXP: TRUE when any substring matches; FALSE for an empty or
-- invalid pattern; NULL for a NULL argument.
SELECT REGEXP('abc', 'b') AS matches, REGEXP('abc', '^b') AS anchored,
       REGEXP('abc', '') AS empty_pattern, REGEXP('abc', '[') AS invalid,
       REGEXP(CAST(NULL AS STRING), 'a') AS null_string;

-- The replacement is literal text, as Flink quotes it ($1 is not a group);
-- an invalid pattern gives NULL.
SELECT REGEXP_REPLACE('2024-03-01', '(\d+)-(\d+)', '$2/$1') AS literal_replacement,
       REGEXP_REPLACE('abc', 'x*', '-') AS empty_matches,
       REGEXP_REPLACE('abc', '(', 'x') AS invalid,
       REGEXP_REPLACE('abc', 'b', CAST(NULL AS STRING)) AS null_replacement;

-- REGEXP_COUNT, REGEXP_INSTR (1-based character position, 0 if none),
-- REGEXP_SUBSTR (NULL if none); an invalid pattern is NULL.
SELECT REGEXP_COUNT('ababab', 'ab') AS count_ab, REGEXP_COUNT('abc', '(') AS count_invalid,
       REGEXP_INSTR('héllo wörld', 'w') AS instr_w, REGEXP_INSTR('abc', 'x') AS instr_none,
       REGEXP_SUBSTR('item 42 of 7', '\d+') AS substr_num, REGEXP_SUBSTR('abc', '\d') AS substr_none;

-- REGEXP_EXTRACT_ALL: group extractIndex (default 1) of every match as an
-- ARRAY<STRING>; NULL when the group does not exist or the pattern is invalid.
SELECT REGEXP_EXTRACT_ALL('a1b22c333', '(\d+)') AS numbers,
       REGEXP_EXTRACT_ALL('k1=v1;k2=v2', '(\w+)=(\w+)', 2) AS values_of,
       REGEXP_EXTRACT_ALL('abc', '(x)?b', 1) AS null_group,
       REGEXP_EXTRACT_ALL('abc', 'b', 1) AS no_such_group,
       REGEXP_EXTRACT_ALL('abc', '(', 1) AS invalid;

-- Java-only syntax: backreferences and lookaround.
SELECT REGEXP_EXTRACT('abccd', '(\w)\1', 0) AS backreference,
       REGEXP_EXTRACT('price: 42 EUR', '\d+(?= EUR)', 0) AS lookahead,
       REGEXP('ab', '(?<!a)b') AS lookbehind;

-- A pattern from a column: compiled when it changes from row to row.
CREATE TABLE samples (ts TIMESTAMP(3), x INT, s STRING, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/samples.csv', 'format' = 'csv');

SELECT s, REGEXP(s, 'a.c') AS any_middle, REGEXP_REPLACE(s, '[_%\\]', '-') AS replaced,
       REGEXP_EXTRACT(s, CONCAT('(', SUBSTRING(s, 1, 1), ')'), 1) AS own_first,
       REGEXP_COUNT(s, '[a-c]') AS letters
FROM samples;
