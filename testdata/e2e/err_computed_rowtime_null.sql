-- Without csv.ignore-parse-errors a row whose computed rowtime is NULL stops
-- the query and names the value.
CREATE TABLE by_text (
  epoch BIGINT, txt STRING, usr STRING, n INT,
  ts AS TO_TIMESTAMP(txt),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/epochs.csv', 'format' = 'csv');
SELECT usr, COUNT(*) AS n FROM by_text GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
