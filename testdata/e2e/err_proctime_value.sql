-- PROCTIME() has no value to show yet: it is a time attribute of a view.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT k, PROCTIME() AS p FROM events;
