-- Flink's JSON functions (Flink's sql_functions.yml, json section). The
-- documented examples first, each with Flink's result in a comment, over a
-- one-row table; then the functions over a column of JSON documents.
CREATE TABLE docs (ts TIMESTAMP(3), id INT, product STRING, cnt INT, payload STRING, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/json_docs.csv', 'format' = 'csv');

-- JSON_VALUE: "true", TRUE, "false", "false", 0.998, "right"; RETURNING INT gives 7
SELECT JSON_VALUE('{"a": true}', '$.a') AS v1,
       JSON_VALUE('{"a": true}', '$.a' RETURNING BOOLEAN) AS v2,
       JSON_VALUE('{"a": true}', 'lax $.b' DEFAULT FALSE ON EMPTY) AS v3,
       JSON_VALUE('{"a": true}', 'strict $.b' DEFAULT FALSE ON ERROR) AS v4,
       JSON_VALUE('{"a.b": [0.998,0.996]}','$.["a.b"][0]' RETURNING DOUBLE) AS v5,
       JSON_VALUE('{"contains blank": "right"}', 'strict $.[''contains blank'']' NULL ON EMPTY DEFAULT 'wrong' ON ERROR) AS v6,
       JSON_VALUE('{"a b": "true"}', '$.[''a b'']') AS v7
FROM docs WHERE id = 1;

-- JSON_QUERY: {"b":1} (Flink writes compact JSON), [1,2], NULL, ["c1","c2"],
-- [{}], [1,2], [[1,2]], NULL, [1], {}, []
SELECT JSON_QUERY('{ "a": { "b": 1 } }', '$.a') AS q1,
       JSON_QUERY('[1, 2]', '$') AS q2,
       JSON_QUERY(CAST(NULL AS STRING), '$') AS q3,
       JSON_QUERY('{"a":[{"c":"c1"},{"c":"c2"}]}', 'lax $.a[*].c') AS q4,
       JSON_QUERY('{}', '$' WITH CONDITIONAL ARRAY WRAPPER) AS q5,
       JSON_QUERY('[1, 2]', '$' WITH CONDITIONAL ARRAY WRAPPER) AS q6,
       JSON_QUERY('[1, 2]', '$' WITH UNCONDITIONAL ARRAY WRAPPER) AS q7,
       JSON_QUERY(1, '$') AS q8,
       JSON_QUERY(1, '$' WITH CONDITIONAL ARRAY WRAPPER) AS q9,
       JSON_QUERY('{}', 'lax $.invalid' EMPTY OBJECT ON EMPTY) AS q10,
       JSON_QUERY('{}', 'strict $.invalid' EMPTY ARRAY ON ERROR) AS q11
FROM docs WHERE id = 1;

-- JSON_EXISTS: TRUE, FALSE, TRUE, TRUE, FALSE
SELECT JSON_EXISTS('{"a": true}', '$.a') AS e1,
       JSON_EXISTS('{"a": true}', '$.b') AS e2,
       JSON_EXISTS('{"a": [{ "b": 1 }]}', '$.a[0].b') AS e3,
       JSON_EXISTS('{"a": true}', 'strict $.b' TRUE ON ERROR) AS e4,
       JSON_EXISTS('{"a": true}', 'strict $.b' FALSE ON ERROR) AS e5
FROM docs WHERE id = 1;

-- IS JSON: TRUE TRUE TRUE TRUE FALSE FALSE, then TRUE FALSE FALSE FALSE FALSE TRUE
SELECT '1' IS JSON AS j1, '[]' IS JSON AS j2, '{}' IS JSON AS j3, '"abc"' IS JSON AS j4,
       'abc' IS JSON AS j5, CAST(NULL AS STRING) IS JSON AS j6,
       '1' IS JSON SCALAR AS j7, '1' IS JSON ARRAY AS j8, '1' IS JSON OBJECT AS j9,
       '{}' IS JSON SCALAR AS j10, '{}' IS JSON ARRAY AS j11, '{}' IS JSON OBJECT AS j12
FROM docs WHERE id = 1;

-- JSON_STRING: NULL, '1', 'true', '"Hello, World!"'
SELECT JSON_STRING(CAST(NULL AS INT)) AS s1, JSON_STRING(1) AS s2, JSON_STRING(TRUE) AS s3,
       JSON_STRING('Hello, World!') AS s4, JSON_STRING(1.5E0) AS s5, JSON_STRING(ts) AS s6
FROM docs WHERE id = 1;

-- JSON_OBJECT: '{}', '{"K1":"V1","K2":"V2"}', '{"K1":null}', '{}', '{"K1":{"K2":"V"}}'
SELECT JSON_OBJECT() AS o1,
       JSON_OBJECT('K1' VALUE 'V1', 'K2' VALUE 'V2') AS o2,
       JSON_OBJECT(KEY 'K1' VALUE CAST(NULL AS STRING) NULL ON NULL) AS o3,
       JSON_OBJECT(KEY 'K1' VALUE CAST(NULL AS STRING) ABSENT ON NULL) AS o4,
       JSON_OBJECT(KEY 'K1' VALUE JSON_OBJECT(KEY 'K2' VALUE 'V')) AS o5
FROM docs WHERE id = 1;

-- JSON_ARRAY: '[]', '[1,"2"]', '[null]', '[]', '[[1]]'
SELECT JSON_ARRAY() AS a1, JSON_ARRAY(1, '2') AS a2,
       JSON_ARRAY(CAST(NULL AS STRING) NULL ON NULL) AS a3,
       JSON_ARRAY(CAST(NULL AS STRING) ABSENT ON NULL) AS a4,
       JSON_ARRAY(JSON_ARRAY(1)) AS a5
FROM docs WHERE id = 1;

-- Over a column: NULL documents, documents that are not JSON, a string
-- number read as INT, BigDecimal text, a lax list and a strict error.
SELECT id,
       JSON_VALUE(payload, '$.user.id' RETURNING INT) AS user_id,
       JSON_VALUE(payload, '$.user.country') AS country,
       JSON_VALUE(payload, '$.price') AS price,
       JSON_QUERY(payload, 'lax $.items[*].c') AS cs,
       JSON_QUERY(payload, '$.user') AS usr,
       JSON_EXISTS(payload, 'lax $.a') AS has_a,
       payload IS JSON OBJECT AS is_obj,
       JSON_OBJECT(KEY 'id' VALUE id, KEY 'p' VALUE product) AS obj,
       JSON_ARRAY(product, cnt) AS arr
FROM docs;

-- JSON_OBJECTAGG and JSON_ARRAYAGG: Flink's '{"Apple":2,"Banana":17,"Orange":0}'
-- and '["Apple","Banana","Orange"]' for the first three rows
SELECT JSON_OBJECTAGG(KEY product VALUE cnt) AS objagg,
       JSON_ARRAYAGG(product) AS arragg,
       JSON_ARRAYAGG(cnt NULL ON NULL) AS cnts
FROM docs WHERE id <= 3
GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE);

SELECT JSON_OBJECTAGG(KEY product VALUE cnt ABSENT ON NULL) AS objagg, JSON_ARRAYAGG(JSON_OBJECT(KEY 'id' VALUE id)) AS objs
FROM docs WHERE product IS NOT NULL
GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE);
