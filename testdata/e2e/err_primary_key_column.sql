-- A primary key names columns of the table.
CREATE TABLE users (
  id BIGINT,
  name STRING,
  PRIMARY KEY (idd) NOT ENFORCED
) WITH ('connector' = 'print');
