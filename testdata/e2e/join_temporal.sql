-- Event-time temporal joins: each payment is converted at the rate that
-- was valid at its time, the version of its currency's row in the
-- versioned table rates (PRIMARY KEY and rowtime). A payment waits until
-- the watermark passes its time, so every version before it has arrived.
CREATE TABLE payments (ts TIMESTAMP(3), id STRING, currency STRING, amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_payments.csv', 'format' = 'csv');
CREATE TABLE rates (updated TIMESTAMP(3), currency STRING, rate DECIMAL(5, 2), PRIMARY KEY (currency) NOT ENFORCED,
  WATERMARK FOR updated AS updated - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/join_rates.csv', 'format' = 'csv');
EXPLAIN SELECT p.id, p.amount * r.rate AS eur FROM payments AS p JOIN rates FOR SYSTEM_TIME AS OF p.ts AS r ON p.currency = r.currency;
SELECT p.id, p.ts, r.updated, r.rate, p.amount * r.rate AS converted FROM payments AS p JOIN rates FOR SYSTEM_TIME AS OF p.ts AS r ON p.currency = r.currency;
SELECT p.id, r.rate FROM payments AS p LEFT JOIN rates FOR SYSTEM_TIME AS OF p.ts AS r ON p.currency = r.currency AND r.rate > 1.12;
-- a window over the converted payments, by the payment's time
SELECT TUMBLE_START(p.ts, INTERVAL '10' SECOND) AS w, SUM(p.amount * r.rate) AS converted
FROM payments AS p JOIN rates FOR SYSTEM_TIME AS OF p.ts AS r ON p.currency = r.currency
GROUP BY TUMBLE(p.ts, INTERVAL '10' SECOND);
