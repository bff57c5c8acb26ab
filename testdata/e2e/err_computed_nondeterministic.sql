-- A computed column must be a function of its row: the time a query
-- starts is not.
CREATE TABLE clicks (
  epoch BIGINT,
  late AS TO_TIMESTAMP_LTZ(epoch, 3) < NOW()
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/epochs.csv', 'format' = 'csv');
