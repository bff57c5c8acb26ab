-- several statements; a ';' in a string or comment does not end one
CREATE TABLE a (x INT) WITH ('path' = 'a;b.csv');
/* ; */ SELECT x FROM a WHERE x > 1; ;
SELECT 'semi;colon' AS s FROM a
;
SELECT COUNT(*) FROM a;
