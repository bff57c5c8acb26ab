-- The stdin connector has no metadata keys.
CREATE TABLE lines (k STRING, f STRING METADATA FROM 'file.name')
WITH ('connector' = 'stdin', 'format' = 'csv');
