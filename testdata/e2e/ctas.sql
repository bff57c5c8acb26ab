-- CREATE TABLE ... AS SELECT: the table takes the query's columns (names
-- and types) and the query's rows are inserted into it.
CREATE TABLE clicks (
  epoch BIGINT,
  dt STRING,
  `user` STRING,
  n INT,
  ts AS TO_TIMESTAMP_LTZ(epoch, 3),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/epochs.csv', 'format' = 'csv');
CREATE TABLE summary WITH ('connector' = 'print') AS
SELECT UPPER(`user`) AS who, n * 10 AS n10, 0.5 AS half FROM clicks WHERE n > 3;
SHOW CREATE TABLE summary;
INSERT INTO summary VALUES ('CAROL', 1, 0.25);
