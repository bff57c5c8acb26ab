-- An unknown connector is the CREATE TABLE's error, the file that the
-- table names is not looked for (it may be created later).
CREATE TABLE later (ts TIMESTAMP(3), k STRING)
WITH ('connector' = 'filesystem', 'path' = 'not/there/yet.csv', 'format' = 'csv');
CREATE TABLE events (ts TIMESTAMP(3), k STRING)
WITH ('connector' = 'filesytem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SHOW TABLES;
