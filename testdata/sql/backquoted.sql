CREATE TABLE IF NOT EXISTS `my events` (
  `user` STRING NOT NULL COMMENT 'who',
  `timestamp` TIMESTAMP_LTZ(3),
  `select` VARCHAR(20),
  price DECIMAL(10, 2),
  qty INTEGER,
  ok BOOLEAN,
  born DATE,
  at_time TIME,
  local_ts TIMESTAMP,
  zoned TIMESTAMP(3) WITH LOCAL TIME ZONE,
  ratio DOUBLE PRECISION,
  total AS price * qty COMMENT 'computed',
  pt AS PROCTIME(),
  WATERMARK FOR `timestamp` AS `timestamp` - INTERVAL '2' SECONDS
) COMMENT 'events table'
WITH ('connector' = 'filesystem', 'path' = 'it''s.csv');

SELECT `user`, e.`timestamp`, `select` AS `from`
FROM `my events` AS e
WHERE `user` IS NOT NULL
