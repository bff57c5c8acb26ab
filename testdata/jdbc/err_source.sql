-- A jdbc table can be written, and looked up by key in a lookup join;
-- it cannot be scanned yet.
CREATE TABLE per_minute (usr STRING, n BIGINT)
WITH ('connector' = 'jdbc', 'url' = 'jdbc:postgresql://localhost/shop', 'table-name' = 'per_minute');

SELECT * FROM per_minute;
