-- There is no table to expand * over.
SELECT 1, *;
