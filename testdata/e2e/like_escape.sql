-- LIKE's escape character is the one ESCAPE names; without ESCAPE there is
-- none and a backslash is an ordinary character, as in Flink since
-- FLINK-39424 (1.20.x and 2.x patch releases: "without ESCAPE clause, '\'
-- is a literal character", so 'a_c' LIKE 'a\_c' is FALSE; older releases
-- read '\' as a default escape in some plans and not in others).
-- Flink's ESCAPE examples (FLINK-36100): 'TE_ST' LIKE '%E\_S%' ESCAPE '\'
-- is TRUE, 'TE-ST' LIKE '%E\_S%' ESCAPE '\' is FALSE.
CREATE TABLE samples (ts TIMESTAMP(3), x INT, s STRING, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/samples.csv', 'format' = 'csv');

SELECT s,
       s LIKE 'a\_c' AS no_escape,
       s LIKE 'a\_c' ESCAPE '\' AS backslash,
       s LIKE 'a!%c' ESCAPE '!' AS bang,
       s LIKE 'a\c' AS literal_backslash,
       s LIKE 'a\\c' ESCAPE '\' AS escaped_backslash,
       s NOT LIKE 'a$_c' ESCAPE '$' AS not_like,
       'TE_ST' LIKE '%E\_S%' ESCAPE '\' AS flink_true,
       'TE-ST' LIKE '%E\_S%' ESCAPE '\' AS flink_false
FROM samples;
