-- DOUBLE and FLOAT values become text as Flink writes them, with Java's
-- Double.toString / Float.toString: shortest digits, plain from 0.001 up
-- to 10^7 with at least one fraction digit (1.0, 100.0, 9999999.0),
-- otherwise d.dddE±n (1.0E7, 1.0E-4, 1.0E20, 4.9E-324); NaN, Infinity,
-- -Infinity and -0.0. The same in CAST to STRING, the CSV sink and print.
CREATE TABLE doubles (
  ts TIMESTAMP(3),
  k STRING,
  x DOUBLE,
  f FLOAT,
  n INT,
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/doubles.csv', 'format' = 'csv');

SELECT k, x, CAST(x AS STRING) AS x_text, f, CAST(f AS STRING) AS f_text,
  'x=' || CAST(x AS STRING) AS concatenated
FROM doubles;

-- AVG of a DOUBLE is a DOUBLE: 2.0, not 2.
SELECT k, AVG(CAST(n AS DOUBLE)) AS avg_n, SUM(CAST(n AS DOUBLE)) AS sum_n, AVG(x) AS avg_x,
  TUMBLE_END(ts, INTERVAL '1' MINUTE) AS wend
FROM doubles
GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);

CREATE TABLE printed (k STRING, avg_n DOUBLE, max_x DOUBLE, min_f FLOAT) WITH ('connector' = 'print');
INSERT INTO printed
SELECT k, AVG(CAST(n AS DOUBLE)), MAX(x), MIN(f)
FROM doubles
GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
