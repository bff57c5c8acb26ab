-- Top-N by RANK() and DENSE_RANK(): equal scores share a rank; RANK
-- leaves a gap after ties, DENSE_RANK does not. WHERE r <= N keeps every
-- row ranked at most N, so ties can keep more than N rows. A row that
-- moves rows down a rank emits -U with their old rank and +U with the
-- new one; a row moved past N is deleted (-D, before the row that enters).
CREATE TABLE scores (ts TIMESTAMP(3), game STRING, player STRING, score INT, WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/top_n_rank_scores.csv', 'format' = 'csv');
SELECT game, player, score, r FROM (
  SELECT game, player, score, RANK() OVER (PARTITION BY game ORDER BY score DESC) AS r FROM scores
) WHERE r <= 2;

SELECT game, player, score, r FROM (
  SELECT game, player, score, DENSE_RANK() OVER (PARTITION BY game ORDER BY score DESC) AS r FROM scores
) WHERE r <= 2;

-- Without the rank in the result, only rows that enter (+I) and leave
-- (-D) are emitted. NULL sorts last descending.
SELECT game, player, score FROM (
  SELECT *, DENSE_RANK() OVER (PARTITION BY game ORDER BY score DESC) AS r FROM scores
) WHERE r <= 2;

-- A range that starts past 1: a row moved down into it enters (+I).
SELECT * FROM (
  SELECT player, score, RANK() OVER (ORDER BY score DESC) AS r FROM scores
) WHERE r BETWEEN 2 AND 3;

-- r = 1 by the rowtime is not a deduplication: rows of equal times tie.
SELECT game, player FROM (
  SELECT game, player, RANK() OVER (PARTITION BY game ORDER BY ts) AS r FROM scores
) WHERE r = 1;

EXPLAIN SELECT game, player FROM (
  SELECT *, DENSE_RANK() OVER (PARTITION BY game ORDER BY score DESC) AS r FROM scores
) WHERE r <= 2;
