-- JSON_STRING and JSON_OBJECT of nested values: an ARRAY is a JSON array,
-- a ROW an object with its field names as keys (sorted, as Flink's Jackson
-- writes them), NULL fields null (Flink: JSON_STRING(ARRAY[1, 2]) is '[1,2]').
CREATE TABLE clicks (ts TIMESTAMP(3), items ARRAY<ROW<sku STRING, qty INT>>, tags ARRAY<STRING>, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
SELECT JSON_STRING(items) AS s, JSON_OBJECT(KEY 'tags' VALUE tags ABSENT ON NULL) AS o
FROM clicks;
