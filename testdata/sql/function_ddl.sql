CREATE FUNCTION twice AS 'twice';
create temporary system function if not exists `Double` as 'my''twice';
CREATE TEMPORARY FUNCTION upper AS 'x';
DROP FUNCTION twice;
DROP TEMPORARY SYSTEM FUNCTION IF EXISTS `Double`;
SHOW USER FUNCTIONS;
show user functions
