-- Aggregates that cannot retract yet are refused over an update stream.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
CREATE VIEW counts AS SELECT k, COUNT(*) AS n FROM events GROUP BY k;
SELECT LISTAGG(k) FROM counts;
