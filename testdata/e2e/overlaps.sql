-- (timepoint1, temporal1) OVERLAPS (timepoint2, temporal2): "Returns TRUE
-- if two time intervals defined by (timepoint1, temporal1) and
-- (timepoint2, temporal2) overlap. The temporal values could be either a
-- time point or a time interval. E.g., (TIME '2:55:00', INTERVAL '1' HOUR)
-- OVERLAPS (TIME '3:30:00', INTERVAL '2' HOUR) returns TRUE; (TIME
-- '9:00:00', TIME '10:00:00') OVERLAPS (TIME '10:15:00', INTERVAL '3'
-- HOUR) returns FALSE." (Flink's sql_functions.yml). The examples as
-- written, and on TIMESTAMPs.
SELECT (TIME '2:55:00', INTERVAL '1' HOUR) OVERLAPS (TIME '3:30:00', INTERVAL '2' HOUR) AS example1,
       (TIME '9:00:00', TIME '10:00:00') OVERLAPS (TIME '10:15:00', INTERVAL '3' HOUR) AS example2,
       (TIMESTAMP '2024-01-01 02:55:00', INTERVAL '1' HOUR) OVERLAPS (TIMESTAMP '2024-01-01 03:30:00', INTERVAL '2' HOUR) AS example1_ts,
       (TIMESTAMP '2024-01-01 09:00:00', TIMESTAMP '2024-01-01 10:00:00') OVERLAPS (TIMESTAMP '2024-01-01 10:15:00', INTERVAL '3' HOUR) AS example2_ts;

-- ends are included, and a period may be written end first (as Calcite
-- sorts its ends); a NULL end gives NULL unless the other side decides
SELECT (DATE '2024-01-01', DATE '2024-01-10') OVERLAPS (DATE '2024-01-10', DATE '2024-01-20') AS touching,
       (DATE '2024-01-10', DATE '2024-01-01') OVERLAPS (DATE '2024-01-05', DATE '2024-01-06') AS reversed,
       (DATE '2024-01-01', CAST(NULL AS DATE)) OVERLAPS (DATE '2024-01-05', DATE '2024-01-06') AS null_end,
       (TIMESTAMP '2024-01-01 00:00:00', INTERVAL '1' MONTH) OVERLAPS (TIMESTAMP '2024-01-31 00:00:00', INTERVAL '1' DAY) AS month_long;

-- periods whose ends are expressions over a column (each end read once)
CREATE TABLE starts (ts TIMESTAMP(3)) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/overlaps_starts.csv', 'format' = 'csv');
SELECT ts, (ts, INTERVAL '1' HOUR) OVERLAPS (ts + INTERVAL '35' MINUTE, INTERVAL '2' HOUR) AS later_start,
       (ts + INTERVAL '2' HOUR, INTERVAL '1' HOUR) OVERLAPS (ts, ts + INTERVAL '1' HOUR) AS apart
FROM starts;
