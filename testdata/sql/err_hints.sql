SELECT * FROM clicks /*+ OPTIONS() */;
SELECT * FROM clicks /*+ OPTIONS('a') */;
SELECT * FROM clicks /*+ OPTIONS('a' = 1) */;
SELECT * FROM clicks /*+ OPTIONS(a = 'b') */;
SELECT * FROM clicks /*+ OPTIONS('a' = 'b', 'a' = 'c') */;
SELECT * FROM clicks /*+ OPTIONS */;
SELECT * FROM clicks /*+ OPTONS('a' = 'b') */;
SELECT * FROM clicks /*+ LOOKUP('table' = 'clicks') */;
SELECT /*+ STATE_TTL('clicks' = '1d') */ * FROM clicks;
SELECT /*+ BROADCAST(clicks) */ * FROM clicks;
SELECT /*+ OPTIONS('a' = 'b') */ * FROM clicks;
SELECT * FROM clicks AS c /*+ OPTIONS('a' = 'b') */;
SELECT * FROM clicks WHERE usr /*+ OPTIONS('a' = 'b') */ = 'x';
SELECT EXTRACT(DAY FROM ts /*+ OPTIONS('a' = 'b') */) FROM clicks;
SELECT * FROM TABLE(TUMBLE(TABLE clicks /*+ OPTIONS('a' = 'b') */, DESCRIPTOR(ts), INTERVAL '1' MINUTE));
CREATE TABLE t (a INT) /*+ OPTIONS('a' = 'b') */ WITH ('connector' = 'datagen');
SELECT * FROM clicks /*+ */;
SELECT * FROM clicks /*+ OPTIONS('a' = 'b') OPTIONS('c' = 'd') */;
SELECT * FROM clicks /*+ OPTIONS('a' = 'b' 'c' = 'd') */
