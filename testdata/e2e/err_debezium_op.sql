-- An unknown op stops the read at its line, after the changes before it.
CREATE TABLE t (id INT, name STRING, weight DOUBLE)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/debezium_bad_op.json', 'format' = 'debezium-json');
SELECT * FROM t WHERE id <> 2;
