-- A misspelled WITH key is the CREATE TABLE's error, before any query
-- reads the table: SHOW TABLES does not run.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv',
      'csv.field-delimitr' = ';');
SHOW TABLES;
