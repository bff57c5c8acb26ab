-- A window over a changelog source is not supported yet: its changes have
-- no time attribute to window by.
CREATE TABLE products (id INT, name STRING, weight DOUBLE, ts AS TIMESTAMP '2024-01-01 00:00:00', WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/debezium_products.json', 'format' = 'debezium-json');
SELECT window_start, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE products, DESCRIPTOR(ts), INTERVAL '1' HOUR)) GROUP BY window_start, window_end;
