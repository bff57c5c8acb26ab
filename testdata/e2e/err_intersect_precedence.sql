-- INTERSECT after UNION or EXCEPT would apply to the result of both if read
-- left to right; SQL binds it tighter, so wsql asks for parentheses.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
SELECT k FROM events UNION ALL SELECT k FROM events INTERSECT SELECT k FROM events WHERE v > 4;
