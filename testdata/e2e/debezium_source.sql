-- 'format' = 'debezium-json' reads Debezium's envelope as an update
-- stream, as Flink does: "c" and "r" are +I of after, "u" is -U of before
-- then +U of after, "d" is -D of before. Fields besides before, after and
-- op are ignored; a blank line is skipped; a missing field is NULL.
CREATE TABLE products (id INT, name STRING, weight DOUBLE)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/debezium_products.json', 'format' = 'debezium-json');
SELECT * FROM products;

-- WHERE and the select list apply to each change; the row kind passes.
SELECT name, weight * 2 AS w2 FROM products WHERE id = 1;

-- The print sink shows each change's kind, -D too.
CREATE TABLE out_print (id INT, name STRING, weight DOUBLE) WITH ('connector' = 'print');
INSERT INTO out_print SELECT * FROM products;

-- 'debezium-json.schema-include': each line is {"schema": ..., "payload": ...}.
CREATE TABLE vans (id INT, name STRING)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/debezium_schema.json', 'format' = 'debezium-json',
        'debezium-json.schema-include' = 'true');
SELECT * FROM vans;

-- 'debezium-json.ignore-parse-errors' skips a bad line, an unknown op and
-- an update or delete without before, and counts them.
CREATE TABLE lenient (id INT, name STRING, weight DOUBLE)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/debezium_bad.json', 'format' = 'debezium-json',
        'debezium-json.ignore-parse-errors' = 'true');
SELECT * FROM lenient;

-- A view or subquery over it passes the changes on, row kinds and all.
CREATE VIEW light AS SELECT id, name FROM products WHERE weight < 10;
SELECT * FROM light;
