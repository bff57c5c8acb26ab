-- The current-time functions. wsql evaluates them once, when the query
-- starts (Flink's batch mode: "evaluated once as the query starts and uses
-- the same result for every row"); the tests run on a clock fixed at
-- 2024-03-01 09:30:00 UTC. CURRENT_TIMESTAMP "the return type is
-- TIMESTAMP_LTZ(3)"; LOCALTIMESTAMP TIMESTAMP(3); LOCALTIME TIME(0);
-- CURRENT_TIME "a synonym of LOCAL_TIME"; NOW() "a synonym of
-- CURRENT_TIMESTAMP"; CURRENT_ROW_TIMESTAMP() TIMESTAMP_LTZ(3).
SELECT CURRENT_TIMESTAMP AS ts_ltz, NOW() AS now_, CURRENT_ROW_TIMESTAMP() AS row_ts,
       LOCALTIMESTAMP AS local_ts, CURRENT_DATE AS today, CURRENT_TIME AS now_time, LOCALTIME AS local_time,
       UNIX_TIMESTAMP() AS epoch_s;

SELECT TYPEOF(CURRENT_TIMESTAMP) AS t1, TYPEOF(LOCALTIMESTAMP) AS t2, TYPEOF(CURRENT_DATE) AS t3,
       TYPEOF(CURRENT_TIME) AS t4, TYPEOF(LOCALTIME) AS t5, TYPEOF(CURRENT_ROW_TIMESTAMP()) AS t6;

-- in the session time zone: the local ones move, the instant does not
SET 'table.local-time-zone' = 'Asia/Tokyo';
SELECT CURRENT_TIMESTAMP AS ts_ltz, LOCALTIMESTAMP AS local_ts, CURRENT_DATE AS today,
       CURRENT_TIME AS now_time, LOCALTIME AS local_time;
