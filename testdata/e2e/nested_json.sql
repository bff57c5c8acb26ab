-- Nested JSON read straight into ROW, ARRAY, MAP and MULTISET columns, in
-- every DDL form Flink documents (ROW<...>, ROW(...), ARRAY<T>, T ARRAY,
-- MAP<K, V>, MULTISET<T>, NOT NULL inside, back-quoted names, field
-- descriptions). A missing field or JSON null is NULL at any depth.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  `user` ROW<id BIGINT NOT NULL, `name` STRING 'display name', country STRING>,
  items ARRAY<ROW(sku STRING, qty INT)>,
  tags STRING ARRAY,
  attrs MAP<STRING, INT>,
  seen MULTISET<STRING>,
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
DESCRIBE clicks;
SHOW CREATE TABLE clicks;
-- Flink's text of nested values: ROW as (1, ann), ARRAY as [a, b], MAP and
-- MULTISET as {k=v}; a NULL inside is null.
SELECT * FROM clicks;
SELECT ts, `user`, CAST(items AS STRING) AS items_text FROM clicks WHERE `user` IS NOT NULL AND items IS NOT NULL;
SELECT COUNT(items) AS with_items, COUNT(`user`) AS with_user, COUNT(*) AS n
FROM clicks GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE);
-- The print sink writes them in the same form.
CREATE TABLE printed (`user` ROW<id BIGINT NOT NULL, name STRING, country STRING>, tags ARRAY<STRING>, seen MULTISET<STRING>)
WITH ('connector' = 'print');
INSERT INTO printed SELECT `user`, tags, seen FROM clicks;
