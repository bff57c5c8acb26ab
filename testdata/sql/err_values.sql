SELECT x FROM (VALUES (1, 'a'), (2)) AS t(x, y);
SELECT x FROM (VALUES (1, 'a')) AS t(x);
INSERT INTO sink VALUES (1, 'a') (2, 'b');
INSERT INTO sink VALUES;
