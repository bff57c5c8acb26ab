-- A GROUP BY or a window over a changelog source is not supported yet:
-- the operators take inserts only.
CREATE TABLE products (id INT, name STRING, weight DOUBLE, ts AS TIMESTAMP '2024-01-01 00:00:00', WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/debezium_products.json', 'format' = 'debezium-json');
SELECT name, COUNT(*) AS n FROM products GROUP BY name;
