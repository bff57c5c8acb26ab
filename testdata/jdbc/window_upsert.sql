-- A TUMBLE per user with early firing (on every row) and late firing
-- (within a minute's allowed lateness) upserted into a PostgreSQL table
-- by its primary key: each early or late firing replaces the window's
-- row, so the table ends with each window's final count and sum, the
-- ones the plain query below prints last for each window.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  usr STRING,
  amount DOUBLE,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');

CREATE TABLE per_minute (
  usr STRING,
  wend TIMESTAMP(3),
  n BIGINT,
  total DECIMAL(10, 2),
  PRIMARY KEY (usr, wend) NOT ENFORCED
) WITH (
  'connector' = 'jdbc',
  'url' = '${url}',
  'table-name' = 'per_minute',
  'sink.buffer-flush.max-rows' = '4'
);

SET 'table.exec.emit.early-fire.enabled' = 'true';
SET 'table.exec.emit.early-fire.delay' = '0 s';
SET 'table.exec.emit.late-fire.enabled' = 'true';
SET 'table.exec.emit.late-fire.delay' = '0 s';
SET 'table.exec.emit.allow-lateness' = '1 min';

INSERT INTO per_minute
SELECT usr, TUMBLE_END(ts, INTERVAL '1' MINUTE), COUNT(*), CAST(SUM(amount) AS DECIMAL(10, 2))
FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);

SET 'table.exec.emit.early-fire.enabled' = 'false';
SELECT usr, TUMBLE_END(ts, INTERVAL '1' MINUTE) AS wend, COUNT(*) AS n, CAST(SUM(amount) AS DECIMAL(10, 2)) AS total
FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE);
