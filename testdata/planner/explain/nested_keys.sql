-- A nested grouping key (and a COUNT(DISTINCT) argument) is keyed by its
-- canonical encoding before the window, and the key decoded back into its
-- value after it, before HAVING and the projection read it.
CREATE TABLE clicks (ts TIMESTAMP(3), `user` ROW<id BIGINT, country STRING>, tags ARRAY<STRING>,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'clicks.json', 'format' = 'json');
EXPLAIN SELECT `user`, tags[1] AS t, COUNT(DISTINCT tags) AS c
FROM clicks
GROUP BY `user`, tags[1], TUMBLE(ts, INTERVAL '1' MINUTE)
HAVING `user`.id > 1;
