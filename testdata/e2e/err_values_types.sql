-- Every column of VALUES needs one type for all its rows.
SELECT x FROM (VALUES (1), ('a')) AS t(x);
