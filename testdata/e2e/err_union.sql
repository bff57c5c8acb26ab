-- the union's amount is BIGINT (INT and BIGINT meet there): the INT sink
-- column takes it only with a CAST
CREATE TABLE web (ts TIMESTAMP(3), usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/union_web.csv', 'format' = 'csv');
CREATE TABLE shop (ts TIMESTAMP(3), usr STRING, amount BIGINT, WATERMARK FOR ts AS ts - INTERVAL '30' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/union_shop.csv', 'format' = 'csv');
CREATE TABLE totals (usr STRING, amount INT) WITH ('connector' = 'print');
INSERT INTO totals SELECT usr, amount FROM web UNION ALL SELECT usr, amount FROM shop;
