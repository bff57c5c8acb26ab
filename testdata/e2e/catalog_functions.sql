-- CURRENT_DATABASE() "Return the current database." (Flink's
-- sql_functions.yml): the one SHOW CURRENT DATABASE names.
SHOW CURRENT DATABASE;
SELECT CURRENT_DATABASE() AS db, UPPER(CURRENT_DATABASE()) AS upper_db;
