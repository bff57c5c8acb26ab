-- UNNEST of ARRAY<ROW<...>> gives the row's fields as columns (a NULL
-- element gives NULL fields); the rows keep the input's time attribute,
-- so a window may follow, and the stage runs on update streams too.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  `user` ROW<id BIGINT, name STRING, country STRING>,
  items ARRAY<ROW<sku STRING, qty INT>>,
  tags ARRAY<STRING>,
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');

SELECT c.ts, i.sku, i.qty FROM clicks AS c CROSS JOIN UNNEST(c.items) AS i;

SELECT `user`.name AS name, sku, qty, pos FROM clicks LEFT JOIN UNNEST(items) WITH ORDINALITY AS i(sku, qty, pos) ON TRUE;

-- A window over the elements: the rowtime passes through
CREATE VIEW click_tags AS SELECT ts, tag FROM clicks CROSS JOIN UNNEST(tags) AS t(tag);
SELECT window_start, tag, COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE click_tags, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end, tag;

SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w, SUM(qty) AS qty
FROM clicks, UNNEST(items) AS i(sku, qty)
GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE);

-- After a window: its arrays expanded
SELECT w, tag FROM (
  SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w, ARRAY_AGG(`user`.country) AS countries
  FROM clicks GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)
) CROSS JOIN UNNEST(countries) AS t(tag);

-- Over an update stream: each change expanded, of its kind
SELECT k, tag FROM (
  SELECT `user`.country AS k, ARRAY_AGG(`user`.name) AS names FROM clicks GROUP BY `user`.country
) AS g CROSS JOIN UNNEST(g.names) AS t(tag);

-- After a regular join and before one
CREATE TABLE countries (code STRING, label STRING) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/unnest_countries.csv', 'format' = 'csv');
SELECT n.label, t.tag FROM clicks AS c JOIN countries AS n ON c.`user`.country = n.code CROSS JOIN UNNEST(c.tags) AS t(tag);
SELECT n.label, t.tag FROM clicks AS c CROSS JOIN UNNEST(c.tags) AS t(tag) JOIN countries AS n ON c.`user`.country = n.code WHERE t.tag <> 'new';
