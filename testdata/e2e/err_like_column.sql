-- A physical column of the base table cannot be declared again.
CREATE TABLE base (a INT, b STRING) WITH ('connector' = 'print');
CREATE TABLE copy (b INT) LIKE base;
