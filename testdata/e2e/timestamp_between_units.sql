-- TIMESTAMP(p) and TIME(p) for a p between Arrow's units (1, 2, 4, 5, 7,
-- 8): kept in the next finer unit, described with their own p, written as
-- Flink writes them (the fraction's trailing zeros dropped down to p
-- digits: .120 of a TIMESTAMP(2) is .12, .100 is .10; a value read finer
-- than its type, .123, keeps its digits, as Flink's DateTimeUtils), and
-- cut to p digits by CAST and by an INSERT into such a column; CAST to
-- STRING writes the same text.
CREATE TABLE samples (
  ts TIMESTAMP(3), t2 TIMESTAMP(2), t5 TIMESTAMP_LTZ(5), tm1 TIME(1), k STRING,
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/timestamp_between_units.csv', 'format' = 'csv');

DESCRIBE samples;

SELECT t2, t5, tm1, CAST(t2 AS TIMESTAMP(1)) AS c1, CAST(t5 AS TIMESTAMP_LTZ(4)) AS c4,
       CAST(TIMESTAMP '1969-12-31 23:59:59.987654' AS TIMESTAMP(1)) AS before_epoch,
       CAST(tm1 AS TIME(2)) AS tm2, COALESCE(t2, t2) AS same, t2 + INTERVAL '1' SECOND AS later,
       CAST(t2 AS TIMESTAMP(1)) = CAST(t2 AS TIMESTAMP(2)) AS cut_equal,
       CAST(t2 AS STRING) AS t2_text, CAST(CAST(t5 AS TIMESTAMP_LTZ(4)) AS STRING) AS c4_text, CAST(tm1 AS STRING) AS tm1_text
FROM samples;

-- a view keeps the precisions of its columns
CREATE VIEW cut AS SELECT k, CAST(ts AS TIMESTAMP(1)) AS t1, t2 FROM samples;
DESCRIBE cut;
SELECT * FROM cut;

-- keys, MIN/MAX/LAST_VALUE and aggregated CASTs keep the precision
SELECT k, MAX(t2) AS last_t2, MIN(CAST(t5 AS TIMESTAMP_LTZ(1))) AS first_t5, LAST_VALUE(tm1) AS last_tm1, COUNT(*) AS n
FROM samples GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);

SELECT t2, COUNT(*) AS n FROM samples GROUP BY t2, TUMBLE(ts, INTERVAL '1' MINUTE);

-- an INSERT cuts to the sink column's precision and the sink writes it so
CREATE TABLE printed (k STRING, t1 TIMESTAMP(1), t3 TIMESTAMP(3)) WITH ('connector' = 'print');
INSERT INTO printed SELECT k, t2, t2 AS t2_again FROM samples;
