-- Flink's arithmetic functions, with the examples of Flink's
-- sql_functions.yml: 4.bin() returns "100" and 12.bin() "1100"; HEX of 20
-- is "14", of 100 "64", of 'hello,world' "68656C6C6F2C776F726C64";
-- 42.324.truncate(2) is 42.32 and 42.324.truncate() 42.0.
SELECT BIN(4) AS bin4, BIN(12) AS bin12, BIN(-1) AS bin_neg,
       HEX(20) AS hex20, HEX(100) AS hex100, HEX('hello,world') AS hex_string,
       TRUNCATE(42.324, 2) AS trunc_decimal, TRUNCATE(CAST(42.324 AS DOUBLE)) AS trunc_double,
       TRUNCATE(CAST(42.324 AS DOUBLE), 2) AS trunc_double2, TRUNCATE(123, -1) AS trunc_int,
       TRUNCATE(CAST(NULL AS DOUBLE), 1) AS trunc_null;

-- LOG(numeric1, numeric2) is the logarithm of numeric2 to the base
-- numeric1; LOG2, trigonometry, DEGREES/RADIANS, SIGN, PI, E.
SELECT LOG(2, 8) AS log2_8, LOG(EXP(2)) AS ln, LOG2(1024) AS log2, LOG10(1000) AS log10,
       SIN(0) AS sin0, COS(0) AS cos0, TAN(0) AS tan0, COT(1) AS cot1, ASIN(1) AS asin1,
       ACOS(1) AS acos1, ATAN(1) AS atan1, ATAN2(1, 1) AS atan2, SINH(0) AS sinh0, COSH(0) AS cosh0,
       TANH(0) AS tanh0, DEGREES(PI()) AS degrees, RADIANS(180) AS radians;

SELECT SIGN(-3) AS sign_int, SIGN(2.5) AS sign_decimal, SIGN(CAST(-0.5 AS DOUBLE)) AS sign_double,
       SIGN(0) AS sign_zero, PI() AS pi, E() AS e;

-- RAND(INT) and RAND_INTEGER(INT1, INT2) "return identical sequences of
-- numbers if they have the same initial seed": java.util.Random's, so
-- new Random(42).nextDouble() and nextInt(100) are Flink's first values.
SELECT RAND(42) AS rand42, RAND_INTEGER(42, 100) AS rand_int42,
       RAND() >= 0 AND RAND() < 1 AS rand_in_range, RAND_INTEGER(10) < 10 AS rand_int_in_range,
       CHAR_LENGTH(UUID()) AS uuid_length, SUBSTRING(UUID(), 15, 1) AS uuid_version;
