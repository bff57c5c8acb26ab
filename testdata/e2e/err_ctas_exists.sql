-- CREATE TABLE ... AS SELECT makes a new table.
CREATE TABLE summary (who STRING) WITH ('connector' = 'print');
CREATE TABLE summary WITH ('connector' = 'print') AS SELECT 'x' AS who;
