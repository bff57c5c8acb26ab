-- Nexmark q2 (selection): the bids on auctions whose id is a multiple of 123.
SELECT auction, price FROM bid WHERE auction % 123 = 0;
