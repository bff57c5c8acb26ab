-- An update without before cannot retract the old row: Flink's error and
-- its hint for Debezium's Postgres connector.
CREATE TABLE t (id INT, name STRING, weight DOUBLE)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/debezium_no_before.json', 'format' = 'debezium-json');
SELECT * FROM t;
