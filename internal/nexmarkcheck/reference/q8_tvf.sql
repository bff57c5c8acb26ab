-- Nexmark q8 (monitor new users) over window TVFs: the people who created
-- an auction in the 10-second TUMBLE window they joined in.
-- check: event time
WITH P AS (
    SELECT id, name, time_bucket(INTERVAL 10 SECOND, dateTime) AS starttime
    FROM person GROUP BY id, name, starttime
),
A AS (
    SELECT seller, time_bucket(INTERVAL 10 SECOND, dateTime) AS starttime
    FROM auction GROUP BY seller, starttime
)
SELECT P.id, P.name, P.starttime
FROM P JOIN A ON P.id = A.seller AND P.starttime = A.starttime;
