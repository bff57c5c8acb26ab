-- Flink's value access over nested JSON: row.field (plain, back-quoted,
-- table-qualified, nested), arr[i] (1-based; out of range is NULL) and
-- m['k'] (a missing key is NULL), in SELECT, WHERE, aggregate arguments and
-- GROUP BY keys.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  `user` ROW<id BIGINT NOT NULL, `name` STRING 'display name', country STRING>,
  items ARRAY<ROW(sku STRING, qty INT)>,
  tags STRING ARRAY,
  attrs MAP<STRING, INT>,
  seen MULTISET<STRING>,
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
SELECT user.id, `user`.`name`, clicks.user.country AS country, c.user.id + 1 AS next_id
FROM clicks AS c;
SELECT items[1].sku AS first_sku, items[2].qty AS second_qty, items[0] AS zeroth, items[3] AS third,
  tags[2] AS second_tag, attrs['ref'] AS ref, attrs['nope'] AS nope
FROM clicks;
SELECT ts, user.name FROM clicks WHERE user.country = 'NL' AND items[1].qty > 1;
SELECT user.country AS country, COUNT(*) AS clicks, SUM(items[1].qty) AS first_qty
FROM clicks
GROUP BY user.country, TUMBLE(ts, INTERVAL '1' MINUTE);
