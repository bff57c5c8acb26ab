-- A csv option on a json table is an error at the option.
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks.jsonl', 'format' = 'json',
      'csv.ignore-parse-errors' = 'true');
SELECT usr, COUNT(*) FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '5' SECOND);
