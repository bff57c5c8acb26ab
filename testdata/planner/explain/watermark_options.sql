-- Watermark options of a source: idle timeout, max future, a general
-- watermark expression, a followed directory.
CREATE TABLE idle (ts TIMESTAMP(3), usr STRING, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv',
      'scan.watermark.idle-timeout' = '30 s', 'scan.watermark.max-future' = '1 h');
CREATE TABLE expr (ts TIMESTAMP(3), usr STRING, WATERMARK FOR ts AS CASE WHEN usr = 'bob' THEN ts - INTERVAL '1' MINUTE ELSE ts - INTERVAL '5' SECOND END)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv');
CREATE TABLE followed (ts TIMESTAMP(3), usr STRING, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'clicks.csv', 'format' = 'csv', 'source.monitor-interval' = '1 s');
EXPLAIN SELECT usr, COUNT(*) AS n FROM idle GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
EXPLAIN SELECT usr, COUNT(*) AS n FROM expr GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
EXPLAIN SELECT usr, COUNT(*) AS n FROM followed GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
