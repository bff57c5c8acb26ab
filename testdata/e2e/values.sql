-- Bounded inputs written in the query: SELECT without FROM (a function
-- tried alone), FROM (VALUES ...) with its column names, and INSERT ...
-- VALUES, whose values are widened to the sink's column types.
SELECT 1 + 1, UPPER('a'), CHAR_LENGTH('wsql') AS n;
SELECT id, UPPER(name) AS name FROM (VALUES (1, 'a'), (2, 'b'), (3, NULL)) AS t(id, name) WHERE id > 1;
SELECT * FROM (VALUES (1, 0.5), (2, NULL), (3, 2)) AS v(a, b);
SELECT EXPR$0 * 10 FROM (VALUES 1, 2, 3);
CREATE TABLE sink (id BIGINT, name STRING, price DECIMAL(10, 2)) WITH ('connector' = 'print');
INSERT INTO sink VALUES (1, 'x', 1.5), (2, LOWER('Y'), NULL), (3, 'z', 10);
