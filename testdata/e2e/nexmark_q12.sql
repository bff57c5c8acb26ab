-- Nexmark q12 in its Flink SQL forms, legacy and TVF: PROCTIME() in a view is a
-- processing-time attribute (the tests' clock is fixed, so every bid is in one window).
CREATE TABLE bid (
  auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR,
  WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND
) WITH ('connector' = 'nexmark', 'nexmark.table' = 'bid', 'events.num' = '120', 'seed' = '1');
CREATE VIEW B AS SELECT *, PROCTIME() as p_time FROM bid;
SELECT
    B.bidder,
    count(*) as bid_count,
    TUMBLE_START(B.p_time, INTERVAL '10' SECOND) as starttime,
    TUMBLE_END(B.p_time, INTERVAL '10' SECOND) as endtime
FROM B
GROUP BY B.bidder, TUMBLE(B.p_time, INTERVAL '10' SECOND);
SELECT bidder, count(*) as bid_count, window_start, window_end
FROM TABLE(TUMBLE(TABLE B, DESCRIPTOR(p_time), INTERVAL '10' SECOND))
GROUP BY bidder, window_start, window_end;
