-- No sink writes metadata: a filesystem sink table with a METADATA column
-- is refused by the INSERT.
CREATE TABLE parts (ts TIMESTAMP(3), k STRING, v INT)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/splits', 'format' = 'csv');
CREATE TABLE out_parts (k STRING, v INT, f STRING METADATA FROM 'file.name' VIRTUAL)
WITH ('connector' = 'filesystem', 'path' = 'metadata_sink_out.csv', 'format' = 'csv');
INSERT INTO out_parts SELECT k, v, k FROM parts;
