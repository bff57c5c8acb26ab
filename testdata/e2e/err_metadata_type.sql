-- A metadata column must have its key's type: 'file.size' is BIGINT.
CREATE TABLE parts (ts TIMESTAMP(3), k STRING, v INT, size STRING METADATA FROM 'file.size')
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/splits', 'format' = 'csv');
