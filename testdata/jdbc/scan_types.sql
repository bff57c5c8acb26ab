-- A bounded scan of a PostgreSQL table reads a column of every type the
-- jdbc connector maps, NULLs and empty values among them; a numeric of
-- more fraction digits than the DECIMAL's scale is rounded half up, and
-- a smaller integer type is read into a wider one.
CREATE TABLE every_type (
  b BOOLEAN, i2 SMALLINT, i4 INT, i4w BIGINT, i8 BIGINT, f4 FLOAT, f8 DOUBLE,
  d DECIMAL(12, 4), dr DECIMAL(10, 3), s STRING, vc VARCHAR(20), ch CHAR(4), js STRING, j STRING, `by` BYTES,
  dt DATE, tm TIME(3), ts TIMESTAMP(3), tsn TIMESTAMP(6), ltz TIMESTAMP_LTZ(3), arr ARRAY<INT>, sarr ARRAY<STRING>
) WITH ('connector' = 'jdbc', 'url' = '${url}', 'table-name' = 'every_type');

SELECT * FROM every_type;

SELECT b, i8 + i4w AS sum_ints, d * 2 AS d2, CARDINALITY(arr) AS n, arr[1] AS first, JSON_VALUE(js, '$.a[1]') AS a1, EXTRACT(YEAR FROM ts) AS y
FROM every_type WHERE b IS NOT NULL;
