-- A JSON lines source ('format' = 'json'): fields in any order, unknown
-- fields ignored, missing fields and null are NULL, numbers in strings are
-- read, a nested object is kept as JSON text in a STRING column. With
-- json.ignore-parse-errors a bad line (a fraction for an INT, not JSON, a
-- missing rowtime) is skipped and counted.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  usr STRING,
  page STRING,
  ms INT,
  amount DOUBLE,
  meta STRING,
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks.jsonl', 'format' = 'json',
        'json.ignore-parse-errors' = 'true');

SELECT usr, TUMBLE_START(ts, INTERVAL '5' SECOND) AS s, COUNT(*) AS n, COUNT(page) AS pages,
       SUM(ms) AS ms, SUM(amount) AS amount, COUNT(meta) AS metas
FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '5' SECOND);

EXPLAIN SELECT usr, COUNT(*) FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '5' SECOND);

-- Without the option the first bad line stops the query, naming file,
-- line, column and value.
CREATE TABLE strict_clicks (
  ts TIMESTAMP(3), usr STRING, ms INT,
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks.jsonl', 'format' = 'json');
SELECT usr, COUNT(*) AS n FROM strict_clicks GROUP BY usr, TUMBLE(ts, INTERVAL '5' SECOND);
