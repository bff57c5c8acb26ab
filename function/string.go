package function

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/textfn"
	"github.com/wsql/wsql/sql"
)

// init adds the family at its place in the registry.
func init() { addFamily(100, stringFunctions) }

// stringFunctions are the string functions.
var stringFunctions = []Function{
	{Name: "UPPER", Kind: ScalarFunction, Description: "the string in upper case",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}},
		Compile:    stringKernel("UPPER")},
	{Name: "LOWER", Kind: ScalarFunction, Description: "the string in lower case",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}},
		Compile:    stringKernel("LOWER")},
	{Name: "CHAR_LENGTH", Aliases: []string{"CHARACTER_LENGTH"}, Kind: ScalarFunction, Description: "the number of characters",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "INT"}},
		Compile:    stringKernel("CHAR_LENGTH")},
	{Name: "CONCAT", Kind: ScalarFunction, Description: "the strings joined; NULL if any is NULL",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Variadic: true, Result: "STRING"}},
		Compile:    stringKernel("CONCAT")},
	{Name: "REPLACE", Kind: ScalarFunction, Description: "every occurrence of from replaced by to",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "from", Type: ArgString}, {Name: "to", Type: ArgString}}, Result: "STRING"}},
		Compile:    stringKernel("REPLACE")},
	{Name: "SUBSTRING", Aliases: []string{"SUBSTR"}, Kind: ScalarFunction, Description: "the characters from start (1-based), length of them or to the end",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "start", Type: ArgInteger}, {Name: "length", Type: ArgInteger, Optional: true}}, Result: "STRING"}},
		Compile:    stringKernel("SUBSTRING")},
	{Name: "TRIM", Kind: ScalarFunction, Syntax: SyntaxOwnForm, Description: "the characters (default space) removed from both ends, the start (LEADING) or the end (TRAILING)",
		Signatures: []Signature{
			{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"},
			{Params: []Param{{Name: "s", Type: ArgString}}, Written: "TRIM([BOTH|LEADING|TRAILING] [chars] FROM s)", Result: "STRING"},
		}},
	{Name: "LTRIM", Kind: ScalarFunction, Description: "the characters of chars (default a space) removed from the start",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "chars", Type: ArgString, Optional: true}}, Result: "STRING"}},
		Compile:    trimKernel(true, false)},
	{Name: "RTRIM", Kind: ScalarFunction, Description: "the characters of chars (default a space) removed from the end",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "chars", Type: ArgString, Optional: true}}, Result: "STRING"}},
		Compile:    trimKernel(false, true)},

	{Name: "CONCAT_WS", Kind: ScalarFunction, Description: "the strings joined with the separator sep, skipping NULL strings; NULL when sep is NULL",
		Signatures: []Signature{{Params: []Param{{Name: "sep", Type: ArgString}, {Name: "s", Type: ArgString}}, Variadic: true, Result: "STRING"}},
		Compile:    textKernel("CONCAT_WS", tString)},
	{Name: "POSITION", Kind: ScalarFunction, Syntax: SyntaxOwnForm, Description: "the position (from 1) of the first needle in s, 0 if none",
		Signatures: []Signature{{Params: []Param{{Name: "needle", Type: ArgString}, {Name: "s", Type: ArgString}}, Written: "POSITION(needle IN s)", Result: "INT"}},
		Compile:    textKernel("POSITION", tInt)},
	{Name: "LOCATE", Kind: ScalarFunction, Description: "the position (from 1) of the first needle in s at or after character from (default 1), 0 if none",
		Signatures: []Signature{{Params: []Param{{Name: "needle", Type: ArgString}, {Name: "s", Type: ArgString}, {Name: "from", Type: ArgInteger, Optional: true}}, Result: "INT"}},
		Compile:    textKernel("LOCATE", tInt)},
	{Name: "INSTR", Kind: ScalarFunction, Description: "the position (from 1) of the first needle in s, 0 if none",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "needle", Type: ArgString}}, Result: "INT"}},
		Compile:    textKernel("INSTR", tInt)},
	{Name: "ASCII", Kind: ScalarFunction, Description: "the code of the first character, 0 for an empty string",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "INT"}},
		Compile:    textKernel("ASCII", tInt)},
	{Name: "CHR", Kind: ScalarFunction, Description: "the character of code n modulo 256 (Latin-1); an empty string for a negative n",
		Signatures: []Signature{{Params: []Param{{Name: "n", Type: ArgInteger}}, Result: "STRING"}},
		Compile:    textKernel("CHR", tString)},
	{Name: "INITCAP", Kind: ScalarFunction, Description: "each word's first letter in upper case, the rest in lower case; a word is a run of letters and digits",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}},
		Compile:    textKernel("INITCAP", tString)},
	{Name: "LPAD", Kind: ScalarFunction, Description: "s padded on the left with pad to n characters, or cut to n; NULL when n < 0 or pad is empty",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "n", Type: ArgInteger}, {Name: "pad", Type: ArgString}}, Result: "STRING"}},
		Compile:    textKernel("LPAD", tString)},
	{Name: "RPAD", Kind: ScalarFunction, Description: "s padded on the right with pad to n characters, or cut to n; NULL when n < 0 or pad is empty",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "n", Type: ArgInteger}, {Name: "pad", Type: ArgString}}, Result: "STRING"}},
		Compile:    textKernel("RPAD", tString)},
	{Name: "LEFT", Kind: ScalarFunction, Description: "the first n characters; empty when n < 0",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "n", Type: ArgInteger}}, Result: "STRING"}},
		Compile:    textKernel("LEFT", tString)},
	{Name: "RIGHT", Kind: ScalarFunction, Description: "the last n characters; empty when n < 0",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "n", Type: ArgInteger}}, Result: "STRING"}},
		Compile:    textKernel("RIGHT", tString)},
	{Name: "REPEAT", Kind: ScalarFunction, Description: "s repeated n times; empty when n <= 0",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "n", Type: ArgInteger}}, Result: "STRING"}},
		Compile:    textKernel("REPEAT", tString)},
	{Name: "REVERSE", Kind: ScalarFunction, Description: "the characters in reverse order",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}},
		Compile:    textKernel("REVERSE", tString)},
	{Name: "OVERLAY", Kind: ScalarFunction, Syntax: SyntaxOwnForm, Description: "s with length characters (default r's length) from position start replaced by r; s when start is not within s",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "r", Type: ArgString}, {Name: "start", Type: ArgInteger}, {Name: "length", Type: ArgInteger, Optional: true}},
			Written: "OVERLAY(s PLACING r FROM start [FOR length])", Result: "STRING"}},
		Compile: textKernel("OVERLAY", tString)},
	{Name: "SPLIT_INDEX", Kind: ScalarFunction, Description: "field k (from 0) of s split at every sep; NULL when k < 0 or there is no field k",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "sep", Type: ArgString}, {Name: "k", Type: ArgInteger}}, Result: "STRING"}},
		Compile:    textKernel("SPLIT_INDEX", tString)},
	{Name: "TRANSLATE", Kind: ScalarFunction, Description: "each character of from in s replaced by the character at its place in to, or removed when to is shorter",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "from", Type: ArgString}, {Name: "to", Type: ArgString}}, Result: "STRING"}},
		Compile:    textKernel("TRANSLATE", tString)},
	{Name: "BTRIM", Kind: ScalarFunction, Description: "the characters of chars (default a space) removed from both ends",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "chars", Type: ArgString, Optional: true}}, Result: "STRING"}},
		Compile:    textKernel("BTRIM", tString)},
	{Name: "STARTSWITH", Kind: ScalarFunction, Description: "whether s starts with prefix (TRUE for an empty prefix)",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "prefix", Type: ArgString}}, Result: "BOOLEAN"}},
		Compile:    textKernel("STARTSWITH", tBool)},
	{Name: "ENDSWITH", Kind: ScalarFunction, Description: "whether s ends with suffix (TRUE for an empty suffix)",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "suffix", Type: ArgString}}, Result: "BOOLEAN"}},
		Compile:    textKernel("ENDSWITH", tBool)},
	{Name: "ELT", Kind: ScalarFunction, Description: "the k-th of the strings (from 1); NULL when k is NULL or out of range",
		Signatures: []Signature{{Params: []Param{{Name: "k", Type: ArgInteger}, {Name: "s", Type: ArgString}}, Variadic: true, Result: "STRING"}},
		Compile:    textKernel("ELT", tString)},
	{Name: "TO_BASE64", Kind: ScalarFunction, Description: "the UTF-8 bytes of s in base64",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}},
		Compile:    textKernel("TO_BASE64", tString)},
	{Name: "FROM_BASE64", Kind: ScalarFunction, Description: "base64 text decoded; text that is not base64 stops the query, as in Flink",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}},
		Compile:    textKernel("FROM_BASE64", tString)},
	{Name: "URL_ENCODE", Kind: ScalarFunction, Description: "s in application/x-www-form-urlencoded form (UTF-8), as Java's URLEncoder",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}},
		Compile:    textKernel("URL_ENCODE", tString)},
	{Name: "URL_DECODE", Kind: ScalarFunction, Description: "application/x-www-form-urlencoded text decoded (UTF-8); NULL for a malformed escape",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}},
		Compile:    textKernel("URL_DECODE", tString)},
	{Name: "PARSE_URL", Kind: ScalarFunction, Description: "a part of a URL: HOST, PATH, QUERY, REF, PROTOCOL, AUTHORITY, FILE or USERINFO, or with key the value of key in the QUERY; NULL when absent or the URL is malformed",
		Signatures: []Signature{{Params: []Param{{Name: "url", Type: ArgString}, {Name: "part", Type: ArgString}, {Name: "key", Type: ArgString, Optional: true}}, Result: "STRING"}},
		Compile:    textKernel("PARSE_URL", tString)},
	{Name: "JSON_QUOTE", Kind: ScalarFunction, Description: "s as a JSON string literal: in double quotes, with quotes, backslashes, slashes, backspace, form feed, newline, return and tab escaped and each character above 127 written as a u escape",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}},
		Compile:    textKernel("JSON_QUOTE", tString)},
	{Name: "JSON_UNQUOTE", Kind: ScalarFunction, Description: "a JSON string literal unquoted and unescaped; any other text as it is",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}},
		Compile:    textKernel("JSON_UNQUOTE", tString)},
	{Name: "PRINTF", Kind: ScalarFunction, Description: "the values formatted by a java.util.Formatter pattern (Locale.US): %s %d %x %o %f %e %g %b %c %n %% with flags, width, precision and n$; a NULL value is null; NULL for a NULL or invalid pattern or a conversion that does not fit its value",
		Signatures: []Signature{{Params: []Param{{Name: "format", Type: ArgString}, {Name: "x", Type: ArgAny, Optional: true}}, Variadic: true, Result: "STRING"}},
		Compile: func(c Compiler, k *Call) (expr.Expr, error) {
			if l, ok := k.Args[0].(*expr.Literal); ok && !l.Null {
				if err := textfn.CheckPrintfFormat(l.Str); err != nil {
					return nil, sql.Errorf(sql.ErrUnsupported, k.Pos[0], "%v", err)
				}
			}
			return c.Fold(k.F.At, &textfn.Printf{Args: k.Args, Loc: c.Location()}, k.Args...)
		}},
	{Name: "STR_TO_MAP", Kind: ScalarFunction, Description: "s split into pairs at the regular expression pairSep (default ','), each split at kvSep (default '=') into a key and a value (NULL without kvSep); a later pair of a key replaces its value",
		Signatures: []Signature{
			{Params: []Param{{Name: "s", Type: ArgString}}, Result: "MAP<STRING, STRING>"},
			{Params: []Param{{Name: "s", Type: ArgString}, {Name: "pairSep", Type: ArgString}, {Name: "kvSep", Type: ArgString}}, Result: "MAP<STRING, STRING>"},
		},
		Compile: func(c Compiler, k *Call) (expr.Expr, error) {
			if len(k.Args) == 2 {
				return nil, sql.Errorf(sql.ErrInvalid, k.F.At, "STR_TO_MAP takes 1 or 3 arguments, got 2")
			}
			return &textfn.StrToMap{Args: k.Args}, nil // not folded: a literal holds no MAP
		}},
	{Name: "ENCODE", Kind: ScalarFunction, Description: "s encoded in the character set charset: 'US-ASCII', 'ISO-8859-1', 'UTF-8', 'UTF-16BE', 'UTF-16LE' or 'UTF-16' (big-endian after a byte-order mark), any case; a character the set cannot hold becomes '?'",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "charset", Type: ArgString}}, Result: "BYTES"}},
		Compile:    charsetKernel},
	{Name: "DECODE", Kind: ScalarFunction, Description: "the text of b in the character set charset (as ENCODE's); bytes that do not decode become U+FFFD, and UTF-16 reads a byte-order mark",
		Signatures: []Signature{{Params: []Param{{Name: "b", Type: argBytes}, {Name: "charset", Type: ArgString}}, Result: "STRING"}},
		Compile:    charsetKernel},
	{Name: "HASH_CODE", Kind: ScalarFunction, Description: "Java's hash code of the value",
		Signatures:  []Signature{{Params: []Param{{Name: "x", Type: ArgAny}}, Result: "INT"}},
		Unsupported: "its value is the hashCode() of Flink's internal Java objects (a string's is a MurmurHash of its binary form), which wsql does not reproduce; use MD5, SHA1 or SHA2 for a hash of a value's text"},
}

// stringKernel is a string function whose arguments the signature checked.
func stringKernel(fn string) func(Compiler, *Call) (expr.Expr, error) {
	return func(c Compiler, k *Call) (expr.Expr, error) {
		return c.Fold(k.F.At, &expr.StringFunc{Name: fn, Args: k.Args}, k.Args...)
	}
}

// trimKernel is LTRIM and RTRIM: spaces, or the characters of a second
// argument, off one end.
func trimKernel(leading, trailing bool) func(Compiler, *Call) (expr.Expr, error) {
	return func(c Compiler, k *Call) (expr.Expr, error) {
		if len(k.Args) > 1 {
			return textKernel(k.Name, tString)(c, k)
		}
		x := k.Args[0]
		return c.Fold(k.F.At, &expr.Trim{X: x, Chars: " ", Leading: leading, Trailing: trailing}, x)
	}
}

// textKernel is a function of exec/expr/textfn whose arguments the
// signature checked.
func textKernel(fn string, result arrow.DataType) func(Compiler, *Call) (expr.Expr, error) {
	return func(c Compiler, k *Call) (expr.Expr, error) {
		return c.Fold(k.F.At, &textfn.Func{Name: fn, Args: k.Args, Type: result}, k.Args...)
	}
}
