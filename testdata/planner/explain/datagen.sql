-- A datagen source: a sequence as event time, random keys and values.
CREATE TABLE gen (
  ms BIGINT, k STRING, v INT,
  ts AS TO_TIMESTAMP_LTZ(ms, 3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH (
  'connector' = 'datagen', 'seed' = '42',
  'fields.ms.kind' = 'sequence', 'fields.ms.start' = '1709285400000', 'fields.ms.end' = '1709285402999',
  'fields.k.length' = '1', 'fields.v.min' = '1', 'fields.v.max' = '100'
);
EXPLAIN SELECT TUMBLE_START(ts, INTERVAL '1' SECOND) AS w, COUNT(*) AS n, SUM(v) AS total
FROM gen GROUP BY TUMBLE(ts, INTERVAL '1' SECOND);
