-- A computed column reads the physical columns.
CREATE TABLE clicks (
  epoch BIGINT,
  n INT,
  total AS nn * 2
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/epochs.csv', 'format' = 'csv');
