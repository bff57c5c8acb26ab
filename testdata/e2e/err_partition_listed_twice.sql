-- A partition column is listed once.
CREATE TABLE logs (msg STRING, dt STRING) PARTITIONED BY (dt, DT)
WITH ('connector' = 'print');
