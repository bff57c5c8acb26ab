-- Value access in a DDL: a computed column over a ROW's field makes the
-- event time (Flink's `ts AS TO_TIMESTAMP_LTZ(payload.ms, 3)`), and the
-- watermark is declared on it.
CREATE TABLE events (
  payload ROW<ms BIGINT, kind STRING, tags ARRAY<STRING>>,
  ts AS TO_TIMESTAMP_LTZ(payload.ms, 3),
  kind AS UPPER(payload.kind),
  first_tag AS payload.tags[1],
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events_nested.jsonl', 'format' = 'json');
DESCRIBE events;
SELECT ts, kind, first_tag FROM events;
SELECT kind, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS wstart, COUNT(*) AS n
FROM events GROUP BY kind, TUMBLE(ts, INTERVAL '1' MINUTE);
