-- The avro-confluent format through Kafka with a schema registry: the
-- sink registers the schema of its columns under the subject
-- <topic>-value (Flink's default) and writes each record after the
-- Confluent wire format's header (magic byte 0, the schema's id); the
-- source fetches the writer's schema by that id and reads the records
-- back; a message not in the wire format is skipped and counted.
CREATE TABLE payments (
  id     BIGINT,
  payer  STRING,
  amount DECIMAL(12, 2),
  ts     TIMESTAMP(3)
) WITH (
  'connector' = 'kafka',
  'topic' = 'payments',
  'properties.bootstrap.servers' = '${brokers}',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset',
  'format' = 'csv'
);

CREATE TABLE payments_avro (
  payer  STRING,
  amount DECIMAL(12, 2),
  ts     TIMESTAMP(3),
  id     BIGINT
) WITH (
  'connector' = 'kafka',
  'topic' = 'payments_avro',
  'properties.bootstrap.servers' = '${brokers}',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset',
  'key.format' = 'raw',
  'key.fields' = 'payer',
  'format' = 'avro-confluent',
  'avro-confluent.url' = '${registry}',
  'avro-confluent.ignore-parse-errors' = 'true'
);

INSERT INTO payments_avro SELECT payer, amount, ts, id FROM payments;

SELECT payer, SUM(amount) AS total, COUNT(*) AS n FROM payments_avro GROUP BY payer;
