-- Nexmark q3 (local item suggestion): an inner join of append-only
-- streams; its materialised result is the batch join.
SELECT P.name, P.city, P.state, A.id
FROM auction AS A JOIN person AS P ON A.seller = P.id
WHERE A.category = 10 AND (P.state = 'OR' OR P.state = 'ID' OR P.state = 'CA');
