-- A rowtime computed from epoch milliseconds, and one parsed from text.
CREATE TABLE by_epoch (epoch BIGINT, txt STRING, usr STRING, n INT, ts AS TO_TIMESTAMP_LTZ(epoch, 3), WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'epochs.csv', 'format' = 'csv');
CREATE TABLE by_text (epoch BIGINT, txt STRING, usr STRING, n INT, ts AS TO_TIMESTAMP(txt), WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'epochs.csv', 'format' = 'csv', 'csv.ignore-parse-errors' = 'true');
EXPLAIN SELECT usr, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS s, SUM(n) AS total
FROM by_epoch GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
EXPLAIN SELECT usr, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS s, SUM(n) AS total
FROM by_text GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
