-- Flink's ARRAY functions (sql_functions "collection"), each with its
-- documented result and NULL behaviour:
--   ARRAY_APPEND(array, element) / ARRAY_PREPEND(array, element) "Appends
--     an element to the end (the beginning) of the array ... If the array
--     itself is null, the function will return null. If an element to add
--     is null, the null element will be added";
--   ARRAY_CONCAT(array1, ...) "all the elements in the first array,
--     followed by all the elements in the second array ... If any input
--     array is NULL, the function returns NULL";
--   ARRAY_DISTINCT(haystack) "an array with unique elements ... Keeps
--     ordering of elements";
--   ARRAY_REMOVE(haystack, needle) "Removes all elements that equal to
--     element from array ... Keeps ordering of elements";
--   ARRAY_SLICE(array, start_offset[, end_offset]) "The offsets are 1-based
--     however 0 is also treated as the beginning of the array. Positive
--     values are counted from the beginning of the array while negative
--     from the end. If 'end_offset' is omitted then this offset is treated
--     as the length of the array. If 'start_offset' is after 'end_offset'
--     or both are out of array bounds an empty array will be returned.
--     Returns null if any input is null";
--   ARRAY_SORT(array[, ascending_order[, null_first]]) "defaulting to
--     ascending order with NULLs at the start ... ascending_order as true
--     orders ... with NULLs first, and setting it to false orders it in
--     descending with NULLs last. Independently, null_first as true moves
--     NULLs to the beginning, and as false to the end ... returns null if
--     any input is null";
--   ARRAY_UNION / ARRAY_INTERSECT / ARRAY_EXCEPT(array1, array2) the union,
--     the elements also in array2, the elements not in array2, "without
--     duplicates ... The order of the elements from array1 is kept ... If
--     any of the array is null, the function will return null";
--   ARRAY_MAX(array) / ARRAY_MIN(array) "the maximum (minimum) value from
--     the array, if array itself is null, the function returns null";
--   ARRAY_JOIN(array, delimiter[, nullReplacement]) "If nullReplacement is
--     not specified, null elements in the array will be omitted ... Returns
--     null if input array or delimiter or nullReplacement are null";
--   SPLIT(string, delimiter) "If the delimiter is not found in the string,
--     the original string is returned as the only element ... If the
--     delimiter is empty, every character in the string is split. If the
--     string or delimiter is null, a null value is returned. If the
--     delimiter is found at the beginning or end of the string, or there
--     are contiguous delimiters, then an empty string is added"; Flink's
--     example SPLIT('abcdefg', 'c') is ['ab', 'defg'].
SELECT ARRAY_APPEND(ARRAY[1, 2], 3) AS app, ARRAY_APPEND(ARRAY[1, 2], NULL) AS app_null,
  ARRAY_PREPEND(ARRAY[1, 2], 0) AS pre, ARRAY_CONCAT(ARRAY[1], ARRAY[2, 3], ARRAY[1]) AS cat,
  ARRAY_CONCAT(ARRAY[1], CAST(NULL AS ARRAY<INT>)) AS cat_null;
SELECT ARRAY_DISTINCT(ARRAY[1, 2, NULL, 2, 1, NULL]) AS dist, ARRAY_REMOVE(ARRAY[1, 2, NULL, 2], 2) AS rm,
  ARRAY_REMOVE(ARRAY[1, 2, NULL, 2], NULL) AS rm_null, ARRAY_REMOVE(CAST(NULL AS ARRAY<INT>), 1) AS rm_of_null;
SELECT ARRAY_SLICE(ARRAY[1, 2, 3, 4, 5], 2, 4) AS s24, ARRAY_SLICE(ARRAY[1, 2, 3, 4, 5], 0, 2) AS s02,
  ARRAY_SLICE(ARRAY[1, 2, 3, 4, 5], -2) AS s_2, ARRAY_SLICE(ARRAY[1, 2, 3, 4, 5], 3) AS s3,
  ARRAY_SLICE(ARRAY[1, 2, 3, 4, 5], 4, 2) AS s42, ARRAY_SLICE(ARRAY[1, 2, 3, 4, 5], 6, 9) AS s69,
  ARRAY_SLICE(ARRAY[1, 2, 3, 4, 5], CAST(NULL AS INT)) AS s_null;
SELECT ARRAY_SORT(ARRAY[3, NULL, 1, 2]) AS asc_nulls_first, ARRAY_SORT(ARRAY[3, NULL, 1, 2], FALSE) AS desc_nulls_last,
  ARRAY_SORT(ARRAY[3, NULL, 1, 2], TRUE, FALSE) AS asc_nulls_last, ARRAY_SORT(ARRAY[3, NULL, 1, 2], FALSE, TRUE) AS desc_nulls_first,
  ARRAY_SORT(ARRAY['b', 'a', 'c']) AS strs, ARRAY_SORT(ARRAY[1, 2], CAST(NULL AS BOOLEAN)) AS sort_null;
SELECT ARRAY_UNION(ARRAY[1, 2, 2, NULL], ARRAY[3, 1, NULL]) AS uni, ARRAY_INTERSECT(ARRAY[1, 2, 2, 3], ARRAY[2, 3, 4]) AS inter,
  ARRAY_EXCEPT(ARRAY[1, 2, 2, 3], ARRAY[3]) AS exc, ARRAY_EXCEPT(ARRAY[1, 2], ARRAY[1, 2]) AS exc_empty,
  ARRAY_UNION(ARRAY[1], CAST(NULL AS ARRAY<INT>)) AS uni_null;
SELECT ARRAY_MAX(ARRAY[1, NULL, 3, 2]) AS mx, ARRAY_MIN(ARRAY[1, NULL, 3, 2]) AS mn, ARRAY_MAX(ARRAY[CAST(NULL AS INT)]) AS mx_nulls,
  ARRAY_MAX(ARRAY['b', 'c', 'a']) AS mx_str, ARRAY_MIN(ARRAY[DATE '2024-03-01', DATE '2023-01-01']) AS mn_date,
  ARRAY_MAX(ARRAY_REMOVE(ARRAY[1], 1)) AS mx_empty;
SELECT ARRAY_JOIN(ARRAY['a', NULL, 'c'], ',') AS j, ARRAY_JOIN(ARRAY['a', NULL, 'c'], ',', '?') AS j_repl,
  ARRAY_JOIN(ARRAY['a'], CAST(NULL AS STRING)) AS j_null_delim, ARRAY_JOIN(ARRAY['a', NULL], ',', CAST(NULL AS STRING)) AS j_null_repl;
SELECT SPLIT('abcdefg', 'c') AS flink_example, SPLIT('abc', 'x') AS not_found, SPLIT('héllo', '') AS chars,
  SPLIT(',a,,b,', ',') AS empties, SPLIT('', ',') AS empty, SPLIT('a-b', CAST(NULL AS STRING)) AS split_null,
  SPLIT('a--b--c', '--') AS whole_delimiter;
-- Nested elements compare by value (a MAP's entries in any order).
SELECT ARRAY_DISTINCT(ARRAY[ROW(1, 'a'), ROW(1, 'a'), ROW(2, 'b')]) AS rows_dist,
  ARRAY_REMOVE(ARRAY[ARRAY[1], ARRAY[2], ARRAY[1]], ARRAY[1]) AS arrays_rm,
  ARRAY_DISTINCT(ARRAY[MAP['a', 1, 'b', 2], MAP['b', 2, 'a', 1]]) AS maps_dist,
  ARRAY_INTERSECT(ARRAY[ARRAY['x'], ARRAY['y']], ARRAY[ARRAY['y']]) AS arrays_inter,
  MAP[ROW(1, 'a'), 'first', ROW(1, 'a'), 'again'] AS row_keys,
  ARRAY_CONTAINS(ARRAY[ROW(1, 'a')], ROW(1, 'a')) AS row_in, ARRAY_POSITION(ARRAY[ARRAY[1], ARRAY[2]], ARRAY[2]) AS array_at;
-- Over columns: a NULL array gives NULL, an empty one an empty result.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  tags STRING ARRAY,
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
SELECT tags, ARRAY_APPEND(tags, 'z') AS app, ARRAY_SORT(tags) AS sorted, ARRAY_DISTINCT(ARRAY_CONCAT(tags, tags)) AS dist,
  ARRAY_SLICE(tags, -1) AS last_tag, ARRAY_JOIN(tags, '|', '-') AS joined, ARRAY_MAX(tags) AS mx,
  ARRAY_EXCEPT(tags, ARRAY['new']) AS not_new, SPLIT(ARRAY_JOIN(tags, ' '), ' ') AS resplit
FROM clicks;
