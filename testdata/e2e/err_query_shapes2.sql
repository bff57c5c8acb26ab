CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');
SELECT usr, amount + 1 FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
