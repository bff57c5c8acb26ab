-- Flink's value constructors (sql_functions "valueconstruction"):
--   ARRAY '[' value1 [, value2 ]* ']' "Returns an array created from a
--     list of values (value1, value2, ...)";
--   MAP '[' value1, value2 [, value3, value4 ]* ']' "Returns a map created
--     from a list of key-value pairs ((value1, value2), (value3, value4),
--     ...)";
--   (value1 [, value2]*) and ROW(...) "Returns a row created from a list
--     of values (value1, value2,...)". The implicit form needs at least two
--     fields.
-- The elements take their least restrictive common type (INT and BIGINT
-- meet in BIGINT); a NULL element is a NULL of that type. The constructed
-- values are never NULL, work in SELECT, WHERE and computed columns, as
-- arguments of the collection functions, and are written in Flink's text:
-- [1, 2], {a=1}, (1, x). A ROW's fields are named EXPR$0, EXPR$1, ... as
-- Flink names them. A key written twice keeps its last value.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  `user` ROW<id BIGINT NOT NULL, `name` STRING, country STRING>,
  tags STRING ARRAY,
  attrs MAP<STRING, INT>,
  pair AS ARRAY[user.id, 0],
  labels AS MAP['name', user.name, 'country', user.country],
  who AS (user.id, user.name),
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
DESCRIBE clicks;
SELECT ARRAY[1, 2] AS ints, ARRAY['a', NULL] AS strs, ARRAY[1, 2.5] AS mixed, ARRAY[ARRAY[1], ARRAY[2, 3]] AS nested,
  MAP['a', 1, 'b', 2] AS m, MAP['a', 1, 'a', 2] AS dup, ROW(1, 'x') AS r, (1, 'x', TRUE) AS r3, ROW('only') AS r1,
  ARRAY['Java', 'SQL'][1] AS first_elem;
SELECT pair, labels, who, ARRAY[tags, ARRAY['x']] AS tag_lists, MAP[COALESCE(user.id, 0), tags] AS by_id, (user.name, attrs) AS name_attrs
FROM clicks;
SELECT user.id AS id FROM clicks WHERE ARRAY_CONTAINS(ARRAY['ann', 'bo'], user.name) AND CARDINALITY(MAP[COALESCE(user.id, 0), 1, 2, 2]) = 2;
SELECT pair[1] AS id, labels['country'] AS country, who.EXPR$1 AS name, ARRAY_POSITION(ARRAY[3, 2, 1], user.id) AS pos
FROM clicks;
SELECT JSON_STRING(ARRAY[1, 2]) AS arr_json, JSON_STRING(ROW(1, 'x')) AS row_json, JSON_STRING(MAP['k', ARRAY[1]]) AS map_json;
CREATE TABLE out_print (pair ARRAY<BIGINT>, labels MAP<STRING, STRING>, who ROW<EXPR$0 BIGINT, EXPR$1 STRING>)
WITH ('connector' = 'print');
INSERT INTO out_print SELECT pair, labels, who FROM clicks WHERE user.id IS NOT NULL;
