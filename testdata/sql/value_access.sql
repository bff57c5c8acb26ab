SELECT user.id, `user`.`id`, t.user.id, a.b.c.d, arr[1], m['k'], arr[1].name, f(x)[2], arr[1][2], `user`.items[CARDINALITY(items)].price
FROM t WHERE user.country = 'DE' AND tags[1] IS NOT NULL;
SELECT ARRAY[1, 2, 3], MAP['a', 1, 'b', 2], ARRAY[ARRAY[1], ARRAY[2]][1] FROM t;
SELECT COUNT(*) FROM t GROUP BY user.country, TUMBLE(ts, INTERVAL '1' MINUTE);
