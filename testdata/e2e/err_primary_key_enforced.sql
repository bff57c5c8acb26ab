-- Flink does not own the data: a primary key is NOT ENFORCED.
CREATE TABLE users (id BIGINT PRIMARY KEY, name STRING) WITH ('connector' = 'print');
