SELECT * FROM words LEFT JOIN LATERAL TABLE(split(s)) AS T(word) ON word = s;
SELECT * FROM words RIGHT JOIN UNNEST(arr) AS u(v) ON TRUE;
SELECT * FROM UNNEST(arr) AS u(v), words;
SELECT * FROM words, UNNEST(a, b) AS u(x, y);
SELECT * FROM words, LATERAL TABLE(1 + 2) AS u(x);
SELECT * FROM words CROSS JOIN UNNEST(arr) AS u(v) ON TRUE;
