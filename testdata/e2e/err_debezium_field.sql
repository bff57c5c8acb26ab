-- A bad value inside before or after is the JSON decoder's positioned
-- error, naming the field by its path.
CREATE TABLE t (id INT, name STRING, weight DOUBLE)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/debezium_bad.json', 'format' = 'debezium-json');
SELECT * FROM t;
