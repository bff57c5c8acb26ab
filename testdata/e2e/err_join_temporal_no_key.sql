-- A versioned table needs a PRIMARY KEY, as in Flink.
CREATE TABLE payments (ts TIMESTAMP(3), id STRING, currency STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_payments.csv', 'format' = 'csv');
CREATE TABLE rates (updated TIMESTAMP(3), currency STRING, rate DECIMAL(5, 2), WATERMARK FOR updated AS updated - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_rates.csv', 'format' = 'csv');
SELECT p.id, r.rate FROM payments AS p JOIN rates FOR SYSTEM_TIME AS OF p.ts AS r ON p.currency = r.currency;
