-- Flink's BYTES functions. The csv writer writes BYTES in base64, as
-- Flink's csv format does.
-- UNHEX: "Converts hexadecimal string expr to BINARY. If the length of
-- expr is odd, the first character is discarded and the result is left
-- padded with a null byte. ... NULL if expr is NULL or expr contains
-- non-hex characters." (Flink's sql_functions.yml)
SELECT UNHEX('48656c6C6f') AS hello, DECODE(UNHEX('48656c6C6f'), 'UTF-8') AS hello_text,
       UNHEX('123') AS odd, UNHEX('') AS empty, UNHEX('4G') AS not_hex,
       UNHEX(CAST(NULL AS STRING)) AS null_hex;

-- ENCODE(string1, string2) "Encodes the string1 into a BINARY using the
-- provided string2 character set (one of 'US-ASCII', 'ISO-8859-1',
-- 'UTF-8', 'UTF-16BE', 'UTF-16LE', 'UTF-16'). If either argument is null,
-- the result will also be null." DECODE(binary, string) decodes it back.
SELECT ENCODE('héllo', 'UTF-8') AS utf8, ENCODE('héllo', 'ISO-8859-1') AS latin1,
       ENCODE('héllo', 'us-ascii') AS ascii, ENCODE('abc', 'UTF-16') AS utf16,
       ENCODE('abc', 'UTF-16LE') AS utf16le, ENCODE('€', 'UTF-16BE') AS utf16be,
       ENCODE(CAST(NULL AS STRING), 'UTF-8') AS null_string, ENCODE('a', CAST(NULL AS STRING)) AS null_charset;

SELECT DECODE(ENCODE('héllo', 'UTF-8'), 'UTF-8') AS utf8, DECODE(ENCODE('héllo', 'ISO-8859-1'), 'ISO-8859-1') AS latin1,
       DECODE(ENCODE('héllo', 'US-ASCII'), 'US-ASCII') AS ascii, DECODE(ENCODE('a😀b', 'UTF-16'), 'UTF-16') AS utf16,
       DECODE(ENCODE('a😀b', 'UTF-16LE'), 'UTF-16LE') AS utf16le, DECODE(X'FFFE6100', 'UTF-16') AS utf16_bom_le,
       DECODE(X'68E9', 'UTF-8') AS malformed, DECODE(X'E9', 'ISO-8859-1') AS latin1_byte,
       DECODE(CAST(NULL AS BYTES), 'UTF-8') AS null_bytes;

-- a character set named by a column is looked up per row
CREATE TABLE charsets (name STRING) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/charsets.csv', 'format' = 'csv');
SELECT name, DECODE(ENCODE('é', name), name) AS round_trip FROM charsets;
