-- ARRAY_AGG and COLLECT hold scalar values only: a ROW, ARRAY, MAP or
-- MULTISET argument is refused at the argument, not silently wrong.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  `user` ROW<id BIGINT, country STRING>,
  items ARRAY<ROW<sku STRING, price DOUBLE>>,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks_nested.json', 'format' = 'json');
SELECT COLLECT(items[1]) FROM clicks GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE);
