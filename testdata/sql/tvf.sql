SELECT window_start, window_end, usr, COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' MINUTES))
GROUP BY window_start, window_end, usr;

SELECT w.window_start, SUM(amount)
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' DAY, INTERVAL '8' HOUR)) AS w
GROUP BY w.window_start, w.window_end;

-- HOP: slide, then size
SELECT window_start, window_time, COUNT(*)
FROM TABLE(HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '5' MINUTE)) hw
GROUP BY window_start, window_end, window_time;

SELECT * FROM TABLE(
  CUMULATE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' HOUR, INTERVAL '1' DAY));

-- named arguments in any order come out in positional order
SELECT * FROM TABLE(
  HOP(
    DATA => TABLE clicks,
    TIMECOL => DESCRIPTOR(ts),
    SIZE => INTERVAL '5' MINUTES,
    SLIDE => INTERVAL '1' MINUTES,
    OFFSET => INTERVAL '30' SECONDS));

SELECT * FROM TABLE(CUMULATE(size => INTERVAL '1' DAY, step => INTERVAL '1' HOUR,
                             timecol => DESCRIPTOR(ts), data => TABLE clicks));

SELECT window_start, usr, COUNT(*)
FROM TABLE(SESSION(TABLE clicks PARTITION BY usr, DESCRIPTOR(ts), INTERVAL '30' SECOND))
GROUP BY window_start, window_end, usr;

SELECT * FROM TABLE(SESSION(TABLE clicks PARTITION BY usr, page, DESCRIPTOR(ts), INTERVAL '30' SECOND));
SELECT * FROM TABLE(SESSION(TABLE `my events` PARTITION BY (usr, `select`), DESCRIPTOR(`timestamp`), INTERVAL '1' MINUTE));
SELECT * FROM TABLE(SESSION(DATA => TABLE clicks PARTITION BY usr, GAP => INTERVAL '5' MINUTE, TIMECOL => DESCRIPTOR(ts)));
SELECT * FROM TABLE(SESSION(TABLE clicks, DESCRIPTOR(ts), INTERVAL '5' MINUTE));

INSERT INTO sink
SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end;

CREATE VIEW per_minute AS
SELECT window_start, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end
