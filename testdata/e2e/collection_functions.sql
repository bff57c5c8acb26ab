-- Flink's collection functions (docs/dev/table/functions/systemFunctions,
-- "Collection Functions"), with their NULL behaviour:
--   CARDINALITY(array) "Returns the number of elements in array";
--   CARDINALITY(map) "Returns the number of entries in map" (a MULTISET
--     counts each element as often as it occurs);
--   ELEMENT(array) "Returns the sole element of array ...; returns NULL if
--     array is empty";
--   ARRAY_CONTAINS(haystack, needle) "Checking for null elements in the
--     array is supported. If the array itself is null, the function will
--     return null";
--   ARRAY_POSITION(haystack, needle) "Returns 0 if the given value could
--     not be found in the array. Returns null if either of the arguments
--     are null ... The first element in the array has index 1";
--   ARRAY_REVERSE(haystack) "If the array itself is null, the function
--     will return null";
--   MAP_KEYS(map) / MAP_VALUES(map) "Returns the keys / values of the map
--     as array".
-- A NULL collection gives NULL.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  `user` ROW<id BIGINT NOT NULL, `name` STRING, country STRING>,
  items ARRAY<ROW(sku STRING, qty INT)>,
  tags STRING ARRAY,
  attrs MAP<STRING, INT>,
  seen MULTISET<STRING>,
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
SELECT CARDINALITY(items) AS n_items, CARDINALITY(tags) AS n_tags, CARDINALITY(attrs) AS n_attrs,
  CARDINALITY(seen) AS n_seen, MAP_KEYS(attrs) AS attr_keys, MAP_VALUES(attrs) AS attr_values
FROM clicks;
SELECT ARRAY_CONTAINS(tags, 'mobile') AS mobile, ARRAY_CONTAINS(tags, CAST(NULL AS STRING)) AS has_null_tag,
  ELEMENT(MAP_VALUES(attrs)) IS NULL AS no_sole_value,
  ARRAY_POSITION(tags, 'mobile') AS mobile_at, ARRAY_POSITION(tags, CAST(NULL AS STRING)) AS null_at,
  ARRAY_REVERSE(tags) AS reversed
FROM clicks WHERE CARDINALITY(attrs) IS NULL OR CARDINALITY(attrs) < 2;
SELECT user.country AS country, SUM(CARDINALITY(items)) AS items, COUNT(*) AS n
FROM clicks WHERE ARRAY_CONTAINS(tags, 'mobile')
GROUP BY user.country, TUMBLE(ts, INTERVAL '1' MINUTE);
