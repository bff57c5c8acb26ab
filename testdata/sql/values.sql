-- VALUES in FROM, named or not, and INSERT ... VALUES.
SELECT 1 + 1, UPPER('a');
SELECT id, name FROM (VALUES (1, 'a'), (2, 'b')) AS t(id, name) WHERE id > 1;
SELECT * FROM (VALUES 1, 2) t;
SELECT * FROM (VALUES (1, CAST(NULL AS INT)));
INSERT INTO sink VALUES (1, 'x'), (2 + 1, UPPER('y'));
INSERT INTO sink (a, b) VALUES (1, 'x');
