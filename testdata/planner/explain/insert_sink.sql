-- INSERT INTO a sink: print, blackhole and filesystem.
CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');
CREATE TABLE out_print (usr STRING, wend TIMESTAMP(3), n BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'out');
CREATE TABLE out_nowhere (usr STRING, wend TIMESTAMP(3), n BIGINT) WITH ('connector' = 'blackhole');
CREATE TABLE out_files (usr STRING, wend TIMESTAMP(3), n BIGINT) WITH ('connector' = 'filesystem', 'path' = 'out', 'format' = 'csv');
EXPLAIN INSERT INTO out_print SELECT usr, TUMBLE_END(ts, INTERVAL '1' MINUTE), COUNT(*) FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
EXPLAIN INSERT INTO out_nowhere SELECT usr, TUMBLE_END(ts, INTERVAL '1' MINUTE), COUNT(*) FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
EXPLAIN INSERT INTO out_files SELECT usr, TUMBLE_END(ts, INTERVAL '1' MINUTE), COUNT(*) FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
