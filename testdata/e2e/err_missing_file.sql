-- A data file that does not exist is found as the query is planned: no
-- header is written, and the error names the table and the path as
-- written, which is relative to the working directory.
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'data/clicks.csv', 'format' = 'csv');
SELECT usr, COUNT(*) FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '5' SECOND);
