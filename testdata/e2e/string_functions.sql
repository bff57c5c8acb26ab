-- Flink's string functions, each with the example of Flink's
-- sql_functions.yml it pins ("returns ..."), and their NULL behaviour.
-- LPAD('hi', 4, '??') returns "??hi"; LPAD('hi', 1, '??') returns "h";
-- RPAD('hi', 4, '??') returns "hi??", RPAD('hi', 1, '??') returns "h".
SELECT LPAD('hi', 4, '??') AS lpad4, LPAD('hi', 1, '??') AS lpad1,
       RPAD('hi', 4, '??') AS rpad4, RPAD('hi', 1, '??') AS rpad1,
       LPAD('hi', -1, '?') AS negative, LPAD('hi', 4, '') AS empty_pad;

-- concat_ws('~', 'AA', Null(STRING), 'BB', '', 'CC') returns "AA~BB~~CC";
-- NULL if the separator is NULL.
SELECT CONCAT_WS('~', 'AA', CAST(NULL AS STRING), 'BB', '', 'CC') AS concat_ws,
       CONCAT_WS(CAST(NULL AS STRING), 'a', 'b') AS null_separator;

-- REPEAT('This is a test String.', 2); 'xxxxxtest'.overlay('xxxx', 6)
-- returns "xxxxxxxxx"; 'xxxxxtest'.overlay('xxxx', 6, 2) returns "xxxxxxxxxst".
SELECT REPEAT('This is a test String.', 2) AS repeat2, REPEAT('a', 0) AS repeat0,
       OVERLAY('xxxxxtest' PLACING 'xxxx' FROM 6) AS overlay1,
       OVERLAY('xxxxxtest' PLACING 'xxxx' FROM 6 FOR 2) AS overlay2;

-- FROM_BASE64('aGVsbG8gd29ybGQ=') returns "hello world"; TO_BASE64('hello
-- world') returns "aGVsbG8gd29ybGQ="; ascii('abc') returns 97; chr(97)
-- returns a, chr(353) returns a.
SELECT FROM_BASE64('aGVsbG8gd29ybGQ=') AS from_base64, TO_BASE64('hello world') AS to_base64,
       ASCII('abc') AS ascii_abc, ASCII(CAST(NULL AS STRING)) AS ascii_null,
       CHR(97) AS chr97, CHR(353) AS chr353, CHR(CAST(NULL AS INT)) AS chr_null;

-- parse_url('http://facebook.com/path1/p.php?k1=v1&k2=v2#Ref1', 'HOST')
-- returns 'facebook.com'; ..., 'QUERY', 'k1') returns 'v1'.
SELECT PARSE_URL('http://facebook.com/path1/p.php?k1=v1&k2=v2#Ref1', 'HOST') AS host,
       PARSE_URL('http://facebook.com/path1/p.php?k1=v1&k2=v2#Ref1', 'QUERY', 'k1') AS k1,
       PARSE_URL('http://facebook.com/path1/p.php?k1=v1&k2=v2#Ref1', 'PATH') AS path,
       PARSE_URL('http://facebook.com/path1/p.php?k1=v1&k2=v2#Ref1', 'QUERY') AS query,
       PARSE_URL('http://facebook.com/path1/p.php?k1=v1&k2=v2#Ref1', 'REF') AS ref,
       PARSE_URL('http://user@facebook.com:8080/p?x=1', 'AUTHORITY') AS authority,
       PARSE_URL('http://facebook.com/p', 'USERINFO') AS no_userinfo,
       PARSE_URL('not a url', 'HOST') AS malformed;

-- POSITION, LOCATE, INSTR (1-based, 0 if not found), LEFT and RIGHT
-- (empty for a negative count), REVERSE, SPLIT_INDEX (NULL for a negative
-- or missing field), INITCAP, TRANSLATE, BTRIM/LTRIM/RTRIM with
-- characters, STARTSWITH/ENDSWITH, ELT.
SELECT POSITION('b' IN 'abcb') AS position_b, POSITION('x' IN 'abc') AS position_x,
       LOCATE('b', 'abcb', 3) AS locate_from3, INSTR('abcb', 'c') AS instr_c,
       LEFT('héllo', 2) AS left2, RIGHT('héllo', 2) AS right2, LEFT('abc', -1) AS left_neg,
       REVERSE('héllo') AS reverse, SPLIT_INDEX('a,b,,c', ',', 2) AS split2,
       SPLIT_INDEX('a,b', ',', 5) AS split_missing, SPLIT_INDEX('a,b', ',', -1) AS split_neg;

SELECT INITCAP('hello wORLD-foo 1st') AS initcap, TRANSLATE('hello', 'lo', 'x') AS translate,
       BTRIM('  x  ') AS btrim, BTRIM('xxaxx', 'x') AS btrim_x, LTRIM('xxa', 'x') AS ltrim_x,
       RTRIM('axx', 'x') AS rtrim_x, STARTSWITH('abc', 'ab') AS starts, ENDSWITH('abc', '') AS ends_empty,
       ELT(2, 'a', 'b') AS elt2, ELT(3, 'a', 'b') AS elt_out_of_range;

-- URL_ENCODE/URL_DECODE (Java's URLEncoder/URLDecoder; NULL for a
-- malformed escape), JSON_QUOTE/JSON_UNQUOTE.
SELECT URL_ENCODE('a b&c=d/é*~') AS url_encode, URL_DECODE('a+b%26c%C3%A9') AS url_decode,
       URL_DECODE('%zz') AS url_decode_bad, JSON_QUOTE('a"b/é') AS json_quote,
       JSON_UNQUOTE('"a\tb\u00e9"') AS json_unquote, JSON_UNQUOTE('[1]') AS json_unquote_other;

-- STR_TO_MAP: pairs split at ',' and '=' by default, both regular
-- expressions; a key without '=' has a NULL value; an empty string is an
-- empty map.
SELECT STR_TO_MAP('a=1,b=2,c') AS defaults, STR_TO_MAP('a:1;b:2;a:3', ';', ':') AS custom,
       STR_TO_MAP('k1 = v1 ,  k2 = v2', '\s*,\s*', '\s*=\s*') AS regex_delimiters,
       STR_TO_MAP('') AS empty_map, STR_TO_MAP(CAST(NULL AS STRING)) AS null_map;

-- PRINTF: java.util.Formatter with Locale.US; "null obj is formated as a
-- string 'null'"; "NULL if format is NULL or invalid".
SELECT PRINTF('%s has %d items costing %.2f', 'cart', 3, 9.996) AS sentence,
       PRINTF('%5d|%-5s|%05d|%x|%X|%o', 42, 'ab', -42, 255, -1, 8) AS widths,
       PRINTF('%,d|%+d|%(d|%b|%c|%%|%2$s', 1234567, 5, -5, TRUE, 65) AS flags,
       PRINTF('%e|%.3e|%g|%.1f|%.0f', 12345.678, 0.000123456, 0.0001, 0.25, 2.5) AS floats,
       PRINTF('%s and %s', 'x', CAST(NULL AS INT)) AS null_value,
       PRINTF('%d', 'x') AS mismatch, PRINTF('%') AS invalid, PRINTF(CAST(NULL AS STRING), 1) AS null_format;

-- A NULL argument gives NULL (CONCAT_WS skips NULL strings).
CREATE TABLE samples (ts TIMESTAMP(3), x INT, s STRING, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/samples.csv', 'format' = 'csv');

SELECT s, LPAD(s, 5, '*') AS lpad, CONCAT_WS('|', s, NULLIF(s, 'x'), s) AS joined,
       POSITION('c' IN s) AS pos_c, SPLIT_INDEX(s, 'b', 1) AS after_b, INITCAP(s) AS initcap,
       LPAD(NULLIF(s, 'x'), 3, '0') AS null_lpad
FROM samples;
