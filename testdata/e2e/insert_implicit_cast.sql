-- INSERT casts a number to the sink column's type where Flink casts
-- implicitly: an integer to a wider one, any number to DECIMAL or DOUBLE
-- (Nexmark q1 writes a DECIMAL(24, 3) product into DECIMAL(23, 3)). A
-- narrowing or a text column still needs a CAST.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
CREATE TABLE wide (k STRING, v BIGINT, price DECIMAL(10, 2), ratio DOUBLE, small DECIMAL(5, 1)) WITH ('connector' = 'print');
EXPLAIN INSERT INTO wide SELECT k, v, v * 1.005, v, CAST(w AS DECIMAL(12, 3)) FROM events WHERE v > 5;
INSERT INTO wide SELECT k, v, v * 1.005, v, CAST(w AS DECIMAL(12, 3)) FROM events WHERE v > 5;
INSERT INTO wide SELECT k, v, v, k, w FROM events;
