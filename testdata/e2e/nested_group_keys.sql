-- Grouping by ROW, ARRAY, MAP and MULTISET values, as Flink does: equal
-- values are one group (a MAP's or MULTISET's entries in any order, a NULL
-- field or element equal to a NULL one), a NULL value is a group of its
-- own, and the key is written back as the value it was. COUNT(DISTINCT x)
-- counts distinct values alike.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  `user` ROW<id BIGINT, country STRING>,
  tags ARRAY<STRING>,
  attrs MAP<STRING, INT>,
  seen MULTISET<STRING>,
  n INT,
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/nested_keys.jsonl', 'format' = 'json');
SELECT `user`, COUNT(*) AS c, SUM(n) AS s
FROM clicks
GROUP BY `user`, TUMBLE(ts, INTERVAL '1' MINUTE);
SELECT window_start, tags, attrs, COUNT(*) AS c
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end, tags, attrs;
SELECT seen, COUNT(*) AS c
FROM clicks
GROUP BY seen, HOP(ts, INTERVAL '1' MINUTE, INTERVAL '2' MINUTE);
SELECT `user`.country AS country, `user`.id AS id, SUM(n) AS s
FROM clicks
GROUP BY `user`, SESSION(ts, INTERVAL '10' SECOND)
HAVING `user` IS NOT NULL;
SELECT window_end, `user`, COUNT(*) AS c
FROM TABLE(CUMULATE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '30' SECOND, INTERVAL '2' MINUTE))
GROUP BY window_start, window_end, `user`;
SELECT tags[1] AS first_tag, COUNT(*) AS c
FROM clicks
GROUP BY tags[1], TUMBLE(ts, INTERVAL '1' MINUTE);
SELECT attrs, COUNT(*) AS c
FROM clicks
GROUP BY attrs, COUNT_WINDOW(2);
SELECT COUNT(DISTINCT `user`) AS users, COUNT(DISTINCT attrs) AS attr_sets, COUNT(DISTINCT seen) AS seen_sets
FROM clicks
GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE);
