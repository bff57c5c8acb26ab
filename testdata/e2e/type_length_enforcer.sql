-- 'table.exec.sink.type-length-enforcer' as in Flink: IGNORE (the default)
-- writes values to a CHAR(n)/VARCHAR(n)/BINARY(n)/VARBINARY(n) sink column
-- as they are; TRIM_PAD cuts them to n, and pads CHAR(n) with spaces and
-- BINARY(n) with zero bytes (Flink's TypeLengthEnforcer).
CREATE TABLE blobs (ts TIMESTAMP(3), b BYTES, v VARBINARY(16), s STRING)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/bytes_and_lengths.csv', 'format' = 'csv');

CREATE TABLE fitted (c CHAR(4), vc VARCHAR(3), bin BINARY(2), vb VARBINARY(1), n INT)
WITH ('connector' = 'print', 'print-identifier' = 'out');

INSERT INTO fitted SELECT s, s AS s2, b, v, CHAR_LENGTH(s) FROM blobs;

SET 'table.exec.sink.type-length-enforcer' = 'TRIM_PAD';

INSERT INTO fitted SELECT s, s AS s2, b, v, CHAR_LENGTH(s) FROM blobs;

SET 'table.exec.sink.type-length-enforcer' = 'trim';
