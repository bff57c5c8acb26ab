-- BYTES, BINARY(n) and VARBINARY(n) as Flink reads, casts and writes them:
-- its csv format holds bytes as base64 (AAEC is 0x000102), the print
-- connector shows them as x'000102', CAST(bytes AS STRING) reads UTF-8.
-- CAST to CHAR(n) pads with spaces and to VARCHAR(n) cuts to n characters,
-- BINARY(n) pads with zero bytes and VARBINARY(n) cuts (Flink 1.15+).
CREATE TABLE blobs (ts TIMESTAMP(3), b BYTES, v VARBINARY(16), s STRING, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/bytes_and_lengths.csv', 'format' = 'csv');

CREATE TABLE shown (b BYTES, v BINARY(4), s STRING) WITH ('connector' = 'print');

DESCRIBE blobs;

SELECT b, v, CAST(v AS STRING) AS text, CAST(s AS BYTES) AS utf8, X'0A0b' AS lit,
       CAST(b AS BINARY(5)) AS padded, CAST(b AS VARBINARY(1)) AS cut,
       b = X'000102' AS same, b < X'ff' AS smaller
FROM blobs;

INSERT INTO shown SELECT b, CAST(v AS BINARY(4)), CAST(CAST(X'6869' AS STRING) AS CHAR(4)) FROM blobs;

SELECT CAST(s AS CHAR(5)) AS c5, CAST(s AS VARCHAR(3)) AS v3, CHAR_LENGTH(CAST(s AS CHAR(5))) AS n5,
       CAST(s AS CHAR(2)) AS c2, CAST(12345 AS VARCHAR(2)) AS digits
FROM blobs;

SELECT b, COUNT(*) AS n FROM blobs GROUP BY b, TUMBLE(ts, INTERVAL '1' MINUTE);

SELECT CAST(42 AS BYTES) FROM blobs;
