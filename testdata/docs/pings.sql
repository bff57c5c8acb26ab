-- The table of the per-row session gap example in docs/semantics.md.
CREATE TABLE pings (k STRING, ts TIMESTAMP(3), gap_s INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/docs/pings.csv', 'format' = 'csv');
