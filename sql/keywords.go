package sql

import (
	"strings"
	"unicode/utf8"

	"github.com/pingcap/tidb/pkg/parser"
)

// Format back-quotes a name only when it must: when it is not a plain
// identifier, or when Flink (Calcite) or TiDB reserves the word. Words TiDB
// reserves but Flink does not are left alone when the rewriter back-quotes
// them itself (mysqlOnlyReserved).

// flinkReserved are the words Flink SQL reserves (Calcite's reserved
// keywords), which need back-quotes to be used as names.
var flinkReserved = wordSet(`
ABS ALL ALLOCATE ALLOW ALTER AND ANY ARE ARRAY ARRAY_MAX_CARDINALITY AS ASENSITIVE
ASYMMETRIC AT ATOMIC AUTHORIZATION AVG BEGIN BEGIN_FRAME BEGIN_PARTITION BETWEEN BIGINT
BINARY BIT BLOB BOOLEAN BOTH BY BYTES CALL CALLED CARDINALITY CASCADED CASE CAST CEIL
CEILING CHAR CHARACTER CHARACTER_LENGTH CHAR_LENGTH CHECK CLASSIFIER CLOB CLOSE COALESCE
COLLATE COLLECT COLUMN COMMIT CONDITION CONNECT CONSTRAINT CONTAINS CONVERT CORR
CORRESPONDING COUNT COVAR_POP COVAR_SAMP CREATE CROSS CUBE CUME_DIST CURRENT
CURRENT_CATALOG CURRENT_DATE CURRENT_DEFAULT_TRANSFORM_GROUP CURRENT_PATH CURRENT_ROLE
CURRENT_ROW CURRENT_SCHEMA CURRENT_TIME CURRENT_TIMESTAMP CURRENT_TRANSFORM_GROUP_FOR_TYPE
CURRENT_USER CURSOR CYCLE DATE DAY DEALLOCATE DEC DECIMAL DECLARE DEFAULT DEFINE DELETE
DENSE_RANK DEREF DESCRIBE DETERMINISTIC DISALLOW DISCONNECT DISTINCT DOUBLE DROP DYNAMIC
EACH ELEMENT ELSE EMPTY END END_FRAME END_PARTITION EQUALS ESCAPE EVERY EXCEPT EXEC
EXECUTE EXISTS EXP EXPLAIN EXTEND EXTERNAL EXTRACT FALSE FETCH FILTER FIRST_VALUE FLOAT
FLOOR FOR FOREIGN FRAME_ROW FREE FROM FULL FUNCTION FUSION GET GLOBAL GRANT GROUP
GROUPING GROUPS HAVING HOLD HOUR IDENTITY IMPORT IN INDICATOR INITIAL INNER INOUT
INSENSITIVE INSERT INT INTEGER INTERSECT INTERSECTION INTERVAL INTO IS JOIN JSON_ARRAY
JSON_ARRAYAGG JSON_EXISTS JSON_OBJECT JSON_OBJECTAGG JSON_QUERY JSON_VALUE LAG LANGUAGE
LARGE LAST_VALUE LATERAL LEAD LEADING LEFT LIKE LIKE_REGEX LIMIT LN LOCAL LOCALTIME
LOCALTIMESTAMP LOWER MATCH MATCHES MATCH_NUMBER MATCH_RECOGNIZE MAX MEASURES MEMBER MERGE
METHOD MIN MINUS MINUTE MOD MODIFIES MODULE MONTH MULTISET NATIONAL NATURAL NCHAR NCLOB
NEW NEXT NO NONE NORMALIZE NOT NTH_VALUE NTILE NULL NULLIF NUMERIC OCCURRENCES_REGEX
OCTET_LENGTH OF OFFSET OLD OMIT ON ONE ONLY OPEN OR ORDER OUT OUTER OVER OVERLAPS
OVERLAY PARAMETER PARTITION PATTERN PER PERCENT PERCENTILE_CONT PERCENTILE_DISC
PERCENT_RANK PERIOD PERMUTE PORTION POSITION POSITION_REGEX POWER PRECEDES PRECISION
PREPARE PREV PRIMARY PROCEDURE RANGE RANK RAW READS REAL RECURSIVE REF REFERENCES
REFERENCING REGR_AVGX REGR_AVGY REGR_COUNT REGR_INTERCEPT REGR_R2 REGR_SLOPE REGR_SXX
REGR_SXY REGR_SYY RELEASE RESET RESULT RETURN RETURNS REVOKE RIGHT ROLLBACK ROLLUP ROW
ROWS ROW_NUMBER RUNNING SAVEPOINT SCOPE SCROLL SEARCH SECOND SEEK SELECT SENSITIVE
SESSION_USER SET SHOW SIMILAR SKIP SMALLINT SOME SPECIFIC SPECIFICTYPE SQL SQLEXCEPTION
SQLSTATE SQLWARNING SQRT START STATIC STDDEV_POP STDDEV_SAMP STREAM STRING SUBMULTISET
SUBSET SUBSTRING SUBSTRING_REGEX SUCCEEDS SUM SYMMETRIC SYSTEM SYSTEM_TIME SYSTEM_USER
TABLE TABLESAMPLE THEN TIME TIMESTAMP TIMEZONE_HOUR TIMEZONE_MINUTE TINYINT TO TRAILING
TRANSLATE TRANSLATE_REGEX TRANSLATION TREAT TRIGGER TRIM TRIM_ARRAY TRUE TRUNCATE
UESCAPE UNION UNIQUE UNKNOWN UNNEST UPDATE UPPER UPSERT USER USING VALUE VALUES VALUE_OF
VARBINARY VARCHAR VARYING VAR_POP VAR_SAMP VERSIONING WHEN WHENEVER WHERE WIDTH_BUCKET
WINDOW WITH WITHIN WITHOUT YEAR`)

// tidbReserved are the words TiDB's grammar reserves.
var tidbReserved = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range parser.Keywords {
		if k.Reserved {
			m[k.Word] = true
		}
	}
	return m
}()

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// QuoteName returns name as Flink SQL that reads back as the same name:
// back-quoted only when it must be.
func QuoteName(name string) string { return quoteName(name) }

// QuoteString returns s as a SQL string literal.
func QuoteString(s string) string { return quoteString(s) }

// quoteString writes s as a SQL string literal.
func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func quoteName(name string) string {
	if isPlainName(name) {
		return name
	}
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// IsIdentifier reports whether the lexer reads name as one identifier.
func IsIdentifier(name string) bool { return isIdentifier(name) }

func isIdentifier(name string) bool {
	if name == "" || !isIdentStart(name, 0) {
		return false
	}
	for i := 0; i < len(name); {
		if !isIdentPart(name, i) {
			return false
		}
		_, n := utf8.DecodeRuneInString(name[i:])
		i += n
	}
	return true
}

// isPlainName reports whether name can be written without back-quotes:
// the lexer reads it as one identifier and neither Flink nor TiDB
// reserves it.
func isPlainName(name string) bool {
	if !isIdentifier(name) {
		return false
	}
	w := strings.ToUpper(name)
	switch {
	case flinkReserved[w], tidbReserved[w] && !mysqlOnlyReserved[w]:
		return false
	case strings.HasPrefix(w, "_"):
		return false // TiDB reads _utf8mb4, _binary ... as charset introducers
	}
	return true
}
