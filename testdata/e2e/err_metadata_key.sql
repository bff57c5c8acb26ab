-- An unknown metadata key is an error at the column, listing the keys the
-- connector offers.
CREATE TABLE parts (ts TIMESTAMP(3), k STRING, v INT, f STRING METADATA FROM 'file.owner')
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/splits', 'format' = 'csv');
