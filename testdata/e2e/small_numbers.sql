-- TINYINT, SMALLINT and FLOAT end to end, with Flink's result types:
-- TINYINT + TINYINT is TINYINT and wraps on overflow as Java's byte
-- arithmetic does; SUM and AVG of a TINYINT are TINYINT (AVG divides the
-- BIGINT sum, 193 / 3 = 64); a FLOAT with an integer is FLOAT, with a
-- DECIMAL literal DOUBLE; FLOAT prints as Java's Float.toString (150.0).
CREATE TABLE n (ts TIMESTAMP(3), a TINYINT, b SMALLINT, f FLOAT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/small_numbers.csv', 'format' = 'csv');

CREATE VIEW arith AS SELECT a + a AS aa, a + b AS ab, b * b AS bb, a * f AS af, f + 1 AS f1, f + 1.5 AS f15,
  a / 2 AS half, f / 2 AS fhalf, -a AS neg, CAST(f AS DOUBLE) AS fd, CAST(a AS STRING) AS s, a % 3 AS m FROM n;

DESCRIBE arith;

SELECT * FROM arith;

CREATE VIEW aggs AS SELECT SUM(a) AS sa, SUM(b) AS sb, SUM(f) AS sf, AVG(a) AS aa, AVG(f) AS af,
  MIN(a) AS mina, MAX(b) AS maxb, MIN(f) AS minf, COUNT(a) AS ca
FROM n GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE);

DESCRIBE aggs;

SELECT * FROM aggs;

SELECT a, b, f, COUNT(*) AS c FROM n GROUP BY a, b, f, TUMBLE(ts, INTERVAL '1' MINUTE);
