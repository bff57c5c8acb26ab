-- A PARTITIONED BY column must be a column of the table: the error is at
-- the unknown name, with the nearest column.
CREATE TABLE logs (msg STRING, dt STRING, hr STRING) PARTITIONED BY (dt, hour)
WITH ('connector' = 'print');
