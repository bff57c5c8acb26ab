-- Append mode: a table without a primary key gets every row of the
-- query, copied in; its password is never shown.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  usr STRING,
  amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');

CREATE TABLE click_log (
  ts TIMESTAMP(3),
  usr STRING,
  amount DOUBLE,
  big BOOLEAN,
  tags ARRAY<STRING>
) WITH (
  'connector' = 'jdbc',
  'url' = '${url}',
  'table-name' = 'click_log',
  'password' = 'not-shown'
);

SHOW CREATE TABLE click_log;

INSERT INTO click_log
SELECT ts, usr, amount, amount > 30, ARRAY[usr, CAST(EXTRACT(MINUTE FROM ts) AS STRING)] FROM clicks;
