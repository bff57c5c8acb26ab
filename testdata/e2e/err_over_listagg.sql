-- An aggregate TiDB's grammar does not read before OVER is refused by name.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, d DECIMAL(10, 2), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT k, LISTAGG(k) OVER (PARTITION BY k ORDER BY ts) FROM events;
