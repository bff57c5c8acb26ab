-- COALESCE, IFNULL and CASE choose between scalar values only yet: a
-- nested one is refused at the argument, not when the query runs.
CREATE TABLE clicks (ts TIMESTAMP(3), items ARRAY<ROW<sku STRING, qty INT>>, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
SELECT COALESCE(items, items) AS i FROM clicks;
