-- The avro format through Kafka: orders read as JSON and written to a
-- topic as Avro records (value and key) of the schemas Flink derives from
-- the sink's columns, then read back from it; a message on that topic
-- that is no Avro record is skipped and counted with
-- 'avro.ignore-parse-errors'.
CREATE TABLE orders_json (
  id     BIGINT,
  item   STRING,
  qty    INT,
  small  TINYINT,
  price  DECIMAL(10, 2),
  ratio  DOUBLE,
  ok     BOOLEAN,
  ts     TIMESTAMP(3),
  ltz    TIMESTAMP_LTZ(3),
  day    DATE,
  at     TIME(3),
  tags   ARRAY<STRING>,
  attrs  MAP<STRING, INT>,
  origin ROW<city STRING, zip INT>
) WITH (
  'connector' = 'kafka',
  'topic' = 'orders_json',
  'properties.bootstrap.servers' = '${brokers}',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset',
  'format' = 'json'
);

CREATE TABLE orders_avro (
  id     BIGINT NOT NULL,
  item   STRING,
  qty    INT,
  small  TINYINT,
  price  DECIMAL(10, 2),
  ratio  DOUBLE,
  ok     BOOLEAN,
  ts     TIMESTAMP(3),
  ltz    TIMESTAMP_LTZ(3),
  day    DATE,
  at     TIME(3),
  tags   ARRAY<STRING>,
  attrs  MAP<STRING, INT>,
  origin ROW<city STRING, zip INT>
) WITH (
  'connector' = 'kafka',
  'topic' = 'orders_avro',
  'properties.bootstrap.servers' = '${brokers}',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset',
  'key.format' = 'avro',
  'key.fields' = 'id',
  'value.format' = 'avro',
  'value.avro.ignore-parse-errors' = 'true'
);

INSERT INTO orders_avro SELECT * FROM orders_json WHERE id IS NOT NULL;

SELECT * FROM orders_avro;
