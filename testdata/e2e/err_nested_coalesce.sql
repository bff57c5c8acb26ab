-- COALESCE, IFNULL, IF and CASE over nested values need results of one
-- nested type: ARRAY<ROW<...>> and ARRAY<INT> are refused at the argument,
-- not when the query runs.
CREATE TABLE clicks (ts TIMESTAMP(3), items ARRAY<ROW<sku STRING, qty INT>>, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
SELECT COALESCE(items, ARRAY[1]) AS i FROM clicks;
