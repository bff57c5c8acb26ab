-- Nested JSON: a user object and an items array per click, counted per
-- country and minute.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  `user` ROW<id BIGINT, country STRING>,
  items ARRAY<ROW<sku STRING, price DOUBLE>>,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks_nested.json', 'format' = 'json');

SELECT user.country AS country,
       TUMBLE_START(ts, INTERVAL '1' MINUTE) AS wstart,
       COUNT(*) AS clicks,
       SUM(CARDINALITY(items)) AS items,
       MAX(items[1].price) AS max_first_price
FROM clicks
GROUP BY user.country, TUMBLE(ts, INTERVAL '1' MINUTE);
