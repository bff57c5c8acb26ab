-- A missing file with a name close to one of its directory's: the error
-- proposes that file.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/event.csv', 'format' = 'csv');
SELECT k, COUNT(*) FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);
