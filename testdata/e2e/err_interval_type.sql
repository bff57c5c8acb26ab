-- An interval qualifier goes from a larger unit to a smaller one of its
-- kind: DAY TO MONTH is not an interval type.
CREATE TABLE t (i INTERVAL DAY TO MONTH) WITH ('connector' = 'datagen');
