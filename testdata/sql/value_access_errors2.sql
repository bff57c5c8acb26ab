SELECT arr[] FROM t;
