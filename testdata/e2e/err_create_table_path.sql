-- A filesystem table without its required 'path' is the CREATE TABLE's
-- error.
CREATE TABLE events (ts TIMESTAMP(3), k STRING)
WITH ('connector' = 'filesystem', 'format' = 'csv');
SHOW TABLES;
