-- INTERVAL column types, as Flink declares them: a year-month interval
-- (YEAR, YEAR TO MONTH, MONTH) holds months and a day-time one (DAY ...
-- SECOND) milliseconds, whatever the precisions, which DESCRIBE shows
-- with Flink's defaults (YEAR(2), DAY(2), SECOND(6)). The csv and json
-- formats read them as those numbers, as Flink's do; results print
-- Flink's text.
CREATE TABLE spans (
  ts TIMESTAMP(3), d INTERVAL DAY TO SECOND(3), m INTERVAL YEAR TO MONTH, k STRING,
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/interval_ddl.csv', 'format' = 'csv');

CREATE TABLE forms (
  a INTERVAL YEAR, b INTERVAL YEAR(4) TO MONTH, c INTERVAL MONTH, e INTERVAL DAY(5), f INTERVAL DAY TO HOUR,
  g INTERVAL DAY TO MINUTE, h INTERVAL HOUR, i INTERVAL HOUR TO SECOND(0), j INTERVAL MINUTE, l INTERVAL MINUTE TO SECOND,
  s INTERVAL SECOND, s9 INTERVAL SECOND(9)
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/interval_ddl.csv', 'format' = 'csv');
DESCRIBE forms;
SHOW CREATE TABLE spans;

-- interval columns in expressions: arithmetic, comparisons, moving a time
SELECT k, d, m, d * 2 AS twice, -m AS back, ts + d AS later, ts + m AS next_months,
       d > INTERVAL '1' SECOND AS over_a_second, CAST(d AS STRING) AS text
FROM spans;

-- an interval column is a grouping key
SELECT d, COUNT(*) AS n FROM spans GROUP BY d, TUMBLE(ts, INTERVAL '1' MINUTE);
