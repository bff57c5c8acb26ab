-- The constructors ARRAY[...], MAP[...] and ROW(...) are known to wsql and
-- refused as not supported yet, at the constructor.
CREATE TABLE clicks (
  ts TIMESTAMP(3),
  tags STRING ARRAY,
  WATERMARK FOR ts AS ts
) WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json');
SELECT tags, ARRAY['a', 'b'] FROM clicks;
