-- FOR SYSTEM_TIME AS OF takes the probe side's time attribute.
CREATE TABLE payments (ts TIMESTAMP(3), id STRING, currency STRING, amount INT, at2 TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_payments.csv', 'format' = 'csv');
CREATE TABLE rates (updated TIMESTAMP(3), currency STRING, rate DECIMAL(5, 2), PRIMARY KEY (currency) NOT ENFORCED,
  WATERMARK FOR updated AS updated - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_rates.csv', 'format' = 'csv');
SELECT p.id, r.rate FROM payments AS p JOIN rates FOR SYSTEM_TIME AS OF p.at2 AS r ON p.currency = r.currency;
