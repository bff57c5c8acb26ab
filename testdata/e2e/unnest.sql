-- UNNEST joins each row with the elements of its array, multiset or map,
-- as Flink's correlate: CROSS JOIN (or a comma) drops a row whose array is
-- NULL or empty, LEFT JOIN ... ON TRUE keeps it once with NULLs.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  `user` ROW<id BIGINT, country STRING>,
  tags ARRAY<STRING>,
  attrs MAP<STRING, INT>,
  seen MULTISET<STRING>,
  n INT,
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/nested_keys.jsonl', 'format' = 'json');

SELECT c.n, t.tag FROM clicks AS c CROSS JOIN UNNEST(c.tags) AS t (tag);

SELECT n, tag FROM clicks, UNNEST(tags) AS t(tag) WHERE tag IS NOT NULL AND n > 1;

SELECT n, tag, pos FROM clicks LEFT JOIN UNNEST(tags) WITH ORDINALITY AS t(tag, pos) ON TRUE;

-- A MAP gives its keys and values, a MULTISET each element as often as it is in it
SELECT n, k, v FROM clicks CROSS JOIN UNNEST(attrs) AS a(k, v);

SELECT n, s FROM clicks CROSS JOIN UNNEST(seen) AS m(s);

-- An array built per row, with the columns named by Flink's defaults
SELECT * FROM (SELECT n FROM clicks WHERE n < 3) AS c CROSS JOIN UNNEST(ARRAY[n, n * 10]) WITH ORDINALITY;

EXPLAIN SELECT c.n, t.tag FROM clicks AS c LEFT JOIN UNNEST(c.tags) WITH ORDINALITY AS t (tag, pos) ON TRUE;
