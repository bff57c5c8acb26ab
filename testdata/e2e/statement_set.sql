-- Statement sets: several INSERTs run as one job that reads each table
-- once. Each INSERT gives the rows it gives alone; the summary counts the
-- rows read once (9, not 18) and the result rows of every INSERT.
CREATE TABLE events (ts TIMESTAMP(3), k STRING, v INT, w BIGINT, WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/events.csv', 'format' = 'csv');
CREATE TABLE per_key (k STRING, wend TIMESTAMP(3), n BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'per_key');
CREATE TABLE big (k STRING, v INT) WITH ('connector' = 'blackhole');

-- each alone
INSERT INTO per_key SELECT k, TUMBLE_END(ts, INTERVAL '5' SECOND), COUNT(*) FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);
INSERT INTO big SELECT k, v FROM events WHERE v > 4;

EXECUTE STATEMENT SET
BEGIN
  INSERT INTO per_key SELECT k, TUMBLE_END(ts, INTERVAL '5' SECOND), COUNT(*) FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);
  INSERT INTO big SELECT k, v FROM events WHERE v > 4;
END;

-- the SQL client's form
BEGIN STATEMENT SET;
INSERT INTO big SELECT k, v FROM events WHERE v > 4;
INSERT INTO per_key SELECT k, TUMBLE_END(ts, INTERVAL '5' SECOND), COUNT(*) FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);
END;

-- an empty set runs nothing
BEGIN STATEMENT SET;
END;

-- bad rows of a table read by two INSERTs are counted once
CREATE TABLE t (ts TIMESTAMP(3), k STRING, v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/bad_rows.csv', 'format' = 'csv', 'csv.ignore-parse-errors' = 'true');
CREATE TABLE counts (k STRING, n BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'counts');
INSERT INTO counts SELECT k, COUNT(*) FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
EXECUTE STATEMENT SET BEGIN
  INSERT INTO counts SELECT k, COUNT(*) FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE);
  INSERT INTO big SELECT k, v FROM t;
END;

-- two tables: each read once, the two reads at the same time
EXECUTE STATEMENT SET BEGIN
  INSERT INTO big SELECT k, v FROM t;
  INSERT INTO per_key SELECT k, TUMBLE_END(ts, INTERVAL '5' SECOND), COUNT(*) FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);
  INSERT INTO big SELECT k, v FROM events;
END;

EXPLAIN STATEMENT SET BEGIN
  INSERT INTO per_key SELECT k, TUMBLE_END(ts, INTERVAL '5' SECOND), COUNT(*) FROM events GROUP BY k, TUMBLE(ts, INTERVAL '5' SECOND);
  INSERT INTO big SELECT k, v FROM events WHERE v > 4;
  INSERT INTO big SELECT k, v FROM t;
END;

-- a VALUES list, or a table read with hints, is read by its INSERT alone
EXECUTE STATEMENT SET BEGIN
  INSERT INTO big VALUES ('x', 1), ('y', 2);
  INSERT INTO per_key VALUES ('z', TIMESTAMP '2024-01-01 00:00:00', 3), ('w', TIMESTAMP '2024-01-01 00:00:00', 4);
END;
EXPLAIN STATEMENT SET BEGIN
  INSERT INTO big VALUES ('x', 1), ('y', 2);
  INSERT INTO big VALUES ('z', 3), ('w', 4);
  INSERT INTO big SELECT k, v FROM events /*+ OPTIONS('csv.ignore-parse-errors' = 'true') */;
  INSERT INTO big SELECT k, v FROM events;
END;
