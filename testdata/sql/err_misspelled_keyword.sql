SELECT usr, COUNT(*) AS n
FORM clicks
GROUP BY usr
