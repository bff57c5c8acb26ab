-- datagen: a millisecond sequence as event time (the sequence's end ends
-- the source), random keys and values reproducible from the seed.
CREATE TABLE gen (
  ms BIGINT,
  k STRING,
  v INT,
  ts AS TO_TIMESTAMP_LTZ(ms, 3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH (
  'connector' = 'datagen',
  'seed' = '42',
  'fields.ms.kind' = 'sequence',
  'fields.ms.start' = '1709285400000',
  'fields.ms.end' = '1709285402999',
  'fields.k.length' = '1',
  'fields.v.min' = '1',
  'fields.v.max' = '100'
);

SELECT TUMBLE_START(ts, INTERVAL '1' SECOND) AS w, COUNT(*) AS n, COUNT(DISTINCT k) AS keys, SUM(v) AS total, MIN(v) AS lo, MAX(v) AS hi
FROM gen GROUP BY TUMBLE(ts, INTERVAL '1' SECOND);

-- Random event times within 'max-past' of the (manual) clock; the
-- watermark delay covers the disorder, so no row is late.
CREATE TABLE clicks (
  usr INT,
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '10' SECOND
) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '1000',
  'fields.usr.min' = '1',
  'fields.usr.max' = '3',
  'fields.ts.max-past' = '10 s'
);

SELECT usr, TUMBLE_START(ts, INTERVAL '5' SECOND) AS w, COUNT(*) AS n
FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '5' SECOND);

EXPLAIN SELECT usr, COUNT(*) FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '5' SECOND);
