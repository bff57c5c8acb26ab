-- Partition columns are physical columns: a computed column is refused
-- where PARTITIONED BY names it.
CREATE TABLE logs (msg STRING, ts TIMESTAMP(3), dt AS DATE_FORMAT(ts, 'yyyy-MM-dd')) PARTITIONED BY (dt)
WITH ('connector' = 'print');
