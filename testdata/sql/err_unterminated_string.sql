SELECT usr FROM clicks
WHERE usr = 'abc
