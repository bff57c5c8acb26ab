-- Flink's VARIANCE and STDDEV are the sample forms, VAR_SAMP and
-- STDDEV_SAMP (Flink docs, aggregate functions: "VARIANCE: synonyms for
-- VAR_SAMP()"): 3.333 for (1, 2, 4, 5), where the population variance is
-- 2.5. Of one row, the sample forms are NULL and the population forms 0.
CREATE TABLE samples (ts TIMESTAMP(3), x INT, s STRING, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/samples.csv', 'format' = 'csv');

SELECT window_start, COUNT(x) AS n,
       VARIANCE(x) AS variance, VAR_SAMP(x) AS var_samp, VAR_POP(x) AS var_pop,
       STDDEV(x) AS stddev, STDDEV_SAMP(x) AS stddev_samp, STDDEV_POP(x) AS stddev_pop
FROM TABLE(TUMBLE(TABLE samples, DESCRIPTOR(ts), INTERVAL '10' MINUTES))
GROUP BY window_start, window_end;
