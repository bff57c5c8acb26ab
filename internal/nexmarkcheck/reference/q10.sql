-- Nexmark q10 (log to file system): every bid with its day and minute.
SELECT auction, bidder, price, dateTime, extra,
    strftime(dateTime, '%Y-%m-%d') AS dt, strftime(dateTime, '%H:%M') AS hm
FROM bid;
