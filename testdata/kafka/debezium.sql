-- Debezium's change events on a topic (debezium-json): each message a
-- change, an update -U and +U, a tombstone after a delete skipped as
-- Flink skips it; a GROUP BY retracts the changes.
CREATE TABLE products (
  id    BIGINT,
  name  STRING,
  kind  STRING
) WITH (
  'connector' = 'kafka',
  'topic' = 'dbserver.inventory.products',
  'properties.bootstrap.servers' = '${brokers}',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset',
  'format' = 'debezium-json'
);

SELECT kind, COUNT(*) AS products FROM products GROUP BY kind;
