-- clicks per user; the filter below has one AND too many
/* a block comment with a ; and a quote ' that must not count,
   spanning two lines */
SELECT usr, COUNT(*) AS n
FROM clicks
WHERE usr = 'a' AND AND amount > 1
GROUP BY usr
