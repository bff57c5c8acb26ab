-- A GROUP BY over a changelog source retracts its changes, as Flink's
-- GroupAggregate over Debezium's CDC: -U and -D take the old row out, and
-- a key whose last row is deleted emits -D.
CREATE TABLE products (id INT, name STRING, weight DOUBLE)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/debezium_products.json', 'format' = 'debezium-json');
SELECT name, COUNT(*) AS n, MAX(weight) AS top FROM products GROUP BY name;
SELECT COUNT(*) AS n FROM products WHERE weight IS NOT NULL;
