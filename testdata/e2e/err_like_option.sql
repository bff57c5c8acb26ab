-- INCLUDING OPTIONS refuses an option the base table already sets.
CREATE TABLE base (a INT) WITH ('connector' = 'print');
CREATE TABLE copy WITH ('connector' = 'blackhole') LIKE base (INCLUDING OPTIONS);
