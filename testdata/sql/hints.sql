-- Flink's dynamic table options: a table hint right after the table's name
SELECT * FROM clicks /*+ OPTIONS('csv.ignore-parse-errors' = 'true') */;
SELECT usr FROM clicks /*+ OPTIONS('path'='other.csv','format'='csv'), options('csv.field-delimiter'=';') */ AS c WHERE c.usr <> 'x';
INSERT INTO sink /*+ OPTIONS('sink.rolling-policy.file-size' = '1 mb') */ SELECT * FROM `clicks` /*+ OPTIONS('k' = 'it''s') */;
INSERT INTO sink /*+ OPTIONS('a' = 'b') */ (usr, n) SELECT usr, n FROM clicks;
SELECT COUNT(*) FROM (SELECT usr FROM clicks /*+ OPTIONS('a' = 'b') */) AS s;
EXPLAIN SELECT * FROM clicks /*+OPTIONS('a'='b')*/;
CREATE VIEW v AS SELECT * FROM clicks /*+ OPTIONS('a' = 'b') */;
-- a plain comment is still a comment
SELECT /* not a hint */ * FROM clicks /* nor this */
