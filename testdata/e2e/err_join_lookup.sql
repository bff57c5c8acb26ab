-- A processing-time temporal join (FOR SYSTEM_TIME AS OF a PROCTIME()
-- column) joins a table of files read whole: a datagen table is not one.
CREATE TABLE orders (ts TIMESTAMP(3), id STRING, usr STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_orders.csv', 'format' = 'csv');
CREATE TABLE gen (name STRING, tier STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '5');
CREATE VIEW orders_p AS SELECT *, PROCTIME() AS pt FROM orders;
SELECT o.id FROM orders_p AS o JOIN gen FOR SYSTEM_TIME AS OF o.pt AS g ON o.usr = g.name;
