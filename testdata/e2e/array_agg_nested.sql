-- ARRAY_AGG and COLLECT over ROW, ARRAY, MAP and MULTISET values, as Flink
-- runs them (its ArrayAggFunction and CollectAggFunction take any element
-- type): ARRAY_AGG keeps the values in arrival order, a NULL one as NULL
-- unless IGNORE NULLS; COLLECT counts equal values as one (a MAP's or
-- MULTISET's entries in any order) and skips NULL; DISTINCT keeps each
-- equal value once (Calcite's COLLECT takes OperandTypes.ANY). The results are ARRAY<T> and MULTISET<T> of the
-- argument's type, so they can be read further.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  `user` ROW<id BIGINT, country STRING>,
  tags ARRAY<STRING>,
  attrs MAP<STRING, INT>,
  seen MULTISET<STRING>,
  n INT,
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/nested_keys.jsonl', 'format' = 'json');

SELECT window_start,
       ARRAY_AGG(`user`) AS users,
       ARRAY_AGG(DISTINCT `user` IGNORE NULLS) AS distinct_users,
       ARRAY_AGG(tags) AS all_tags,
       COLLECT(attrs) AS attr_counts,
       COLLECT(DISTINCT seen) AS seen_sets,
       COLLECT(ROW(`user`.country, n > 2)) FILTER (WHERE n < 6) AS country_big
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end;

-- The results read further: an element's field, a count, a nested key
SELECT `user`, ARRAY_AGG(tags)[1] AS first_tags, CARDINALITY(COLLECT(attrs)) AS attr_sets,
       ARRAY_AGG(`user`)[1].country AS country, ARRAY_AGG(ROW(n, tags))[2] AS second
FROM clicks
GROUP BY `user`, TUMBLE(ts, INTERVAL '1' MINUTE);

-- HOP merges its panes, SESSION its sessions, a count window its rows
SELECT HOP_END(ts, INTERVAL '1' MINUTE, INTERVAL '2' MINUTE) AS hop_end, ARRAY_AGG(attrs) AS attrs
FROM clicks GROUP BY HOP(ts, INTERVAL '1' MINUTE, INTERVAL '2' MINUTE);

SELECT COLLECT(tags) AS tag_lists FROM clicks GROUP BY SESSION(ts, INTERVAL '2' SECOND);

SELECT ARRAY_AGG(seen) AS seen_pairs FROM clicks GROUP BY COUNT_WINDOW(2);

-- Early firing: an update stream leads with its row kind
SET 'table.exec.emit.early-fire.enabled' = 'true';
SET 'table.exec.emit.early-fire.delay' = '0 s';
SELECT ARRAY_AGG(`user`) AS users_so_far
FROM clicks WHERE n < 4 GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE);
