SELECT * FROM clicks /*+ OPTIONS('csv.ignore-parse-errors' = 'true') ;
