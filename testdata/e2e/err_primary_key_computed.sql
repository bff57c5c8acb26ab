-- A primary key is declared on physical columns.
CREATE TABLE users (
  epoch BIGINT,
  ts AS TO_TIMESTAMP_LTZ(epoch, 3),
  PRIMARY KEY (ts) NOT ENFORCED
) WITH ('connector' = 'print');
