-- The rest of Flink's CREATE TABLE: metadata columns, primary keys (on
-- the table or its column, named or not), LIKE with its merging options,
-- and CREATE TABLE ... AS SELECT.
CREATE TABLE files (
  line STRING,
  path STRING NOT NULL METADATA FROM 'file.path' VIRTUAL,
  `file.size` BIGINT METADATA,
  id BIGINT NOT NULL,
  total AS id * 2 + 1,
  CONSTRAINT pk PRIMARY KEY (id, line) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = 'x.csv', 'format' = 'csv');
CREATE TABLE users (id BIGINT PRIMARY KEY NOT ENFORCED COMMENT 'the id', name STRING);
CREATE TABLE users2 (uid INT CONSTRAINT u PRIMARY KEY NOT ENFORCED);
CREATE TABLE copy WITH ('path' = 'y.csv') LIKE files;
CREATE TABLE copy2 (extra INT) WITH ('path' = 'y.csv') LIKE files (EXCLUDING ALL, INCLUDING OPTIONS, OVERWRITING WATERMARKS);
CREATE TABLE summary WITH ('connector' = 'print') AS SELECT id, UPPER(name) AS name FROM users WHERE id > 1;
