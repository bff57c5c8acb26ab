package sql

import (
	"strconv"
	"strings"
)

// Flink type names (STRING, TIMESTAMP_LTZ(3), TIMESTAMP(3) WITH LOCAL TIME
// ZONE ...) are not MySQL's, so types are read from tokens here, both in
// CREATE TABLE and in CAST, and never go through TiDB.

// typeAliases maps every accepted spelling to its canonical name and
// whether it takes a precision, a precision and a scale, or nothing.
var typeAliases = map[string]struct {
	name   string
	params int
}{
	"STRING": {"STRING", 0}, "VARCHAR": {"VARCHAR", 1}, "CHAR": {"CHAR", 1}, "CHARACTER": {"CHAR", 1},
	"BOOLEAN": {"BOOLEAN", 0}, "BOOL": {"BOOLEAN", 0},
	"TINYINT": {"TINYINT", 0}, "SMALLINT": {"SMALLINT", 0}, "INT": {"INT", 0}, "INTEGER": {"INT", 0}, "BIGINT": {"BIGINT", 0},
	"FLOAT": {"FLOAT", 0}, "REAL": {"FLOAT", 0}, "DOUBLE": {"DOUBLE", 0},
	"DECIMAL": {"DECIMAL", 2}, "DEC": {"DECIMAL", 2}, "NUMERIC": {"DECIMAL", 2},
	"DATE": {"DATE", 0}, "TIME": {"TIME", 1}, "TIMESTAMP": {"TIMESTAMP", 1}, "TIMESTAMP_LTZ": {"TIMESTAMP_LTZ", 1},
	"BYTES": {"BYTES", 0}, "BINARY": {"BINARY", 1}, "VARBINARY": {"VARBINARY", 1},
}

// unsupportedTypes are Flink types wsql cannot hold yet.
var unsupportedTypes = map[string]bool{
	"ARRAY": true, "MAP": true, "MULTISET": true,
	"ROW": true, "RAW": true, "NULL": true, "VARIANT": true, "STRUCTURED": true,
}

// parseScalarType reads a type other than a nested one (nested_types.go)
// starting at toks[i] and returns it with the index of the first token
// after it.
func parseScalarType(toks []token, i int) (TypeName, int, *Error) {
	if i >= len(toks) {
		return TypeName{}, i, Errorf(ErrSyntax, endPos(toks), "expected a type at end of input")
	}
	t := toks[i]
	word := strings.ToUpper(t.text)
	alias, ok := typeAliases[word]
	switch {
	case t.kind != tokIdent:
		return TypeName{}, i, Errorf(ErrSyntax, t.pos, "expected a type such as STRING or BIGINT, found %s", t.text)
	case word == "INTERVAL":
		return parseIntervalType(toks, i)
	case unsupportedTypes[word]:
		return TypeName{}, i, Errorf(ErrUnsupported, t.pos, "type %s is not supported yet", word)
	case !ok:
		return TypeName{}, i, Errorf(ErrSyntax, t.pos, "unknown type %s%s", t.text, DidYouMean(word, typeNames()))
	}
	tn := TypeName{Name: alias.name, Precision: -1, Scale: -1, At: t.pos}
	j := i + 1
	if alias.name == "DOUBLE" && j < len(toks) && toks[j].is("PRECISION") {
		j++
	}
	if alias.name == "CHAR" && j < len(toks) && toks[j].is("VARYING") {
		tn.Name = "VARCHAR"
		j++
	}
	if j < len(toks) && toks[j].isOp("(") {
		if alias.params == 0 {
			return TypeName{}, i, Errorf(ErrSyntax, toks[j].pos, "type %s takes no precision", tn.Name)
		}
		var nums []int
		k := j + 1
		for {
			if k >= len(toks) || toks[k].kind != tokNumber {
				return TypeName{}, i, Errorf(ErrSyntax, tokPos(toks, k), "expected a whole number as the precision of %s", tn.Name)
			}
			n, err := strconv.Atoi(toks[k].text)
			if err != nil || n < 0 {
				return TypeName{}, i, Errorf(ErrSyntax, toks[k].pos, "expected a whole number as the precision of %s", tn.Name)
			}
			nums = append(nums, n)
			k++
			if k < len(toks) && toks[k].isOp(",") && len(nums) < alias.params {
				k++
				continue
			}
			if k < len(toks) && toks[k].isOp(")") {
				break
			}
			return TypeName{}, i, Errorf(ErrSyntax, tokPos(toks, k), "expected ) after the precision of %s", tn.Name)
		}
		tn.Precision = nums[0]
		if len(nums) == 2 {
			tn.Scale = nums[1]
		}
		j = k + 1
	}
	if tn.Name == "TIMESTAMP" || tn.Name == "TIME" {
		switch {
		case wordsAt(toks, j, "WITHOUT", "TIME", "ZONE"):
			j += 3
		case tn.Name == "TIMESTAMP" && wordsAt(toks, j, "WITH", "LOCAL", "TIME", "ZONE"):
			tn.Name = "TIMESTAMP_LTZ"
			j += 4
		case wordsAt(toks, j, "WITH", "TIME", "ZONE"):
			return TypeName{}, i, Errorf(ErrUnsupported, toks[j].pos, "%s WITH TIME ZONE is not supported; use TIMESTAMP_LTZ", tn.Name)
		}
	}
	return tn, j, nil
}

// wordsAt reports whether toks[j:] starts with the given unquoted words.
func wordsAt(toks []token, j int, words ...string) bool {
	if j+len(words) > len(toks) {
		return false
	}
	for k, w := range words {
		if !toks[j+k].is(w) {
			return false
		}
	}
	return true
}

// tokPos is the position of toks[k], or the end of the input past the last
// token.
func tokPos(toks []token, k int) Pos {
	if k < len(toks) {
		return toks[k].pos
	}
	return endPos(toks)
}

// endPos is the position right after the last token.
func endPos(toks []token) Pos {
	if len(toks) == 0 {
		return Pos{Offset: 0, Line: 1, Col: 1}
	}
	return toks[len(toks)-1].endAt
}

func typeNames() []string {
	out := make([]string, 0, len(typeAliases))
	for k := range typeAliases {
		out = append(out, k)
	}
	return out
}
