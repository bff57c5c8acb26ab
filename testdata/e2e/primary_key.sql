-- PRIMARY KEY ... NOT ENFORCED, on the table or on its column: declared,
-- kept in the catalog, shown by DESCRIBE and SHOW CREATE TABLE; its
-- columns are NOT NULL as Flink makes them.
CREATE TABLE users (
  id BIGINT,
  region STRING,
  name STRING,
  PRIMARY KEY (region, id) NOT ENFORCED
) WITH ('connector' = 'print');
CREATE TABLE accounts (
  id BIGINT CONSTRAINT account_pk PRIMARY KEY NOT ENFORCED COMMENT 'the account',
  owner STRING
) WITH ('connector' = 'print');
DESCRIBE users;
SHOW CREATE TABLE users;
DESCRIBE accounts;
SHOW CREATE TABLE accounts;
