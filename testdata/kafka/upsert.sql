-- upsert-kafka: a compacted topic of users by id read as a changelog
-- (+I for a key's first record, -U and +U for a later one, -D for a
-- tombstone), counted by country with retractions, and copied to another
-- upsert topic: a record of the key and row for +I and +U, a tombstone for
-- -D, nothing for -U.
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

CREATE TABLE users_copy (
  id      STRING,
  name    STRING,
  country STRING,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka',
  'topic' = 'users_copy',
  'properties.bootstrap.servers' = '${brokers}',
  'key.format' = 'raw',
  'value.format' = 'csv'
);

SELECT country, COUNT(*) AS users FROM users GROUP BY country;

INSERT INTO users_copy SELECT CAST(id AS STRING), name, country FROM users;
