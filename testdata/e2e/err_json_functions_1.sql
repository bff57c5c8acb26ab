-- Errors of Flink's JSON functions: ERROR ON ERROR and ERROR ON EMPTY stop
-- the query at the row, as does a JSON_OBJECTAGG key that occurs twice.
CREATE TABLE docs (ts TIMESTAMP(3), id INT, product STRING, cnt INT, payload STRING, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/json_docs.csv', 'format' = 'csv');

-- ERROR ON ERROR stops the query at a document that is not JSON, and
-- ERROR ON EMPTY at a lax path that finds nothing
SELECT JSON_VALUE(payload, 'strict $.a' NULL ON EMPTY ERROR ON ERROR) FROM docs WHERE id = 3;
