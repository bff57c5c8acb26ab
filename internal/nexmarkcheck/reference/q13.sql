-- Nexmark q13 (bounded side input join): each bid joined with the row of
-- the side input file whose key is its auction id modulo 10000. The file
-- does not change while the query runs, so the processing-time temporal
-- join is the join with its rows. MOD of a BIGINT by an INT is an INT in
-- Flink, and the key fits it.
SELECT B.auction, B.bidder, B.price, B.dateTime, S.value
FROM bid AS B
JOIN read_csv('../../testdata/nexmark/data/side_input.txt', header = false,
    columns = {'key': 'BIGINT', 'value': 'VARCHAR'}) AS S
  ON B.auction % 10000 = S.key;
