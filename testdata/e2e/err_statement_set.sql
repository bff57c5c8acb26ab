-- Only INSERT statements may be inside a statement set; the error points
-- at the statement, and nothing of the set has run.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
CREATE TABLE out_print (k STRING, v INT) WITH ('connector' = 'print');
BEGIN STATEMENT SET;
INSERT INTO out_print SELECT k, v FROM events;
SELECT k FROM events;
END;
