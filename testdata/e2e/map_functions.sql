-- Flink's MAP functions (sql_functions "collection"):
--   MAP_ENTRIES(map) "Returns an array of all entries in the given map"
--     (ROWs of key and value);
--   MAP_FROM_ARRAYS(array_of_keys, array_of_values) "Returns a map created
--     from an arrays of keys and values. Note that the lengths of two arrays
--     should be the same" (different lengths fail the query, as in Flink);
--   MAP_UNION(map1, ...) "If there are overlapping keys, the value from
--     'map2' will overwrite the value from 'map1' ... If any of maps is
--     null, return null".
-- A NULL map gives NULL. A key repeated keeps its first place and its last
-- value.
SELECT MAP_ENTRIES(MAP['a', 1, 'b', 2]) AS entries, MAP_FROM_ARRAYS(ARRAY['a', 'b', 'a'], ARRAY[1, 2, 3]) AS from_arrays,
  MAP_UNION(MAP['a', 1, 'b', 2], MAP['b', 3, 'c', 4]) AS uni, MAP_UNION(MAP['a', 1]) AS uni_one,
  MAP_UNION(MAP['a', 1], CAST(NULL AS MAP<STRING, INT>)) AS uni_null,
  MAP_FROM_ARRAYS(ARRAY[1], CAST(NULL AS ARRAY<STRING>)) AS from_null;
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  attrs MAP<STRING, INT>,
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
SELECT attrs, MAP_ENTRIES(attrs) AS entries, MAP_UNION(attrs, MAP['ab', 10, 'new', 1]) AS merged,
  MAP_FROM_ARRAYS(MAP_KEYS(attrs), ARRAY_REVERSE(MAP_VALUES(attrs))) AS reversed, MAP_ENTRIES(attrs)[1].`key` AS first_key
FROM clicks WHERE CARDINALITY(attrs) > 0 OR attrs IS NULL;
SELECT MAP_FROM_ARRAYS(ARRAY[1, 2], ARRAY['a']) AS bad;
