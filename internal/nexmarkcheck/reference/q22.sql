-- Nexmark q22 (get URL directories): the bids with the 4th to 6th parts of
-- their url split at '/'. Flink's SPLIT_INDEX counts from 0 and is NULL
-- past the last part, as a DuckDB list index past the end.
SELECT
    auction, bidder, price, channel,
    string_split(url, '/')[4] AS dir1,
    string_split(url, '/')[5] AS dir2,
    string_split(url, '/')[6] AS dir3
FROM bid;
