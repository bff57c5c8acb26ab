  SELCT usr FROM clicks
