-- upsert-kafka in avro-confluent, key and value: the sink registers the
-- key's schema under <topic>-key and the row's under <topic>-value (each
-- message after its schema's id), writes a tombstone for a deleted key;
-- read back, the topic is the changelog of the latest row per key.
CREATE TABLE users (
  id      BIGINT,
  name    STRING,
  country STRING,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka',
  'topic' = 'users',
  'properties.bootstrap.servers' = '${brokers}',
  'scan.bounded.mode' = 'latest-offset',
  'key.format' = 'json',
  'value.format' = 'json'
);

CREATE TABLE users_avro (
  id      BIGINT NOT NULL,
  name    STRING,
  country STRING,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka',
  'topic' = 'users_avro',
  'properties.bootstrap.servers' = '${brokers}',
  'scan.bounded.mode' = 'latest-offset',
  'key.format' = 'avro-confluent',
  'key.avro-confluent.url' = '${registry}',
  'value.format' = 'avro-confluent',
  'value.avro-confluent.url' = '${registry}'
);

INSERT INTO users_avro SELECT * FROM users;

SELECT country, COUNT(*) AS users FROM users_avro GROUP BY country;
