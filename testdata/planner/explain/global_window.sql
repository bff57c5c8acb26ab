-- A window without keys: one global window per time range.
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');
EXPLAIN SELECT TUMBLE_END(ts, INTERVAL '2' MINUTE) AS wend, COUNT(DISTINCT usr) AS users, LISTAGG(usr, '|') AS who
FROM clicks GROUP BY TUMBLE(ts, INTERVAL '2' MINUTE);
