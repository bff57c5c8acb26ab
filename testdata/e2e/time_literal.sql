-- TIME literals and CAST(STRING AS TIME), as Flink writes them:
-- TIME '12:00:01' is the time of day 12:00:01 (Flink's documented literal
-- form). A time that does not exist is an error where the literal is.
CREATE TABLE samples (ts TIMESTAMP(3), x INT, s STRING, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/samples.csv', 'format' = 'csv');

SELECT x, TIME '12:00:01' AS t, CAST('23:59:59.123' AS TIME) AS with_fraction,
       CAST('08:30' AS TIME) AS no_seconds,
       TIME '12:00:01' > TIME '10:01:30' AS later,
       CAST(TIME '12:00:01' AS STRING) AS text
FROM samples WHERE x > 4;

SELECT TIME '25:00:00' FROM samples;
