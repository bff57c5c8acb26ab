CREATE TABLE clicks (a INT) WITH ('connector' = 'print');
SHOW CREATE VIEW clicks;
