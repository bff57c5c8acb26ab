package predicate

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// SimilarTo is X SIMILAR TO pattern: the whole string matches the SQL
// regular expression (% and _ as in LIKE; | * + ? {m,n} ( ) [ ] as in a
// regular expression; every other character, . included, stands for
// itself). NULL when X is NULL.
type SimilarTo struct {
	X       expr.Expr
	Pattern string
	re      *regexp.Regexp
}

// NewSimilarTo compiles pattern once; escape < 0 means none.
func NewSimilarTo(x expr.Expr, pattern string, escape rune) (*SimilarTo, error) {
	src, err := similarToRegexp(pattern, escape)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, fmt.Errorf("invalid SIMILAR TO pattern %q: %v", pattern, err)
	}
	return &SimilarTo{X: x, Pattern: pattern, re: re}, nil
}

// similarToRegexp translates a SIMILAR TO pattern, as Calcite's
// Like.sqlToRegexSimilar does, into an anchored Go regular expression.
func similarToRegexp(pattern string, escape rune) (string, error) {
	var b strings.Builder
	b.WriteString(`^(?s:`)
	rs := []rune(pattern)
	inBracket := false
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == escape:
			if i+1 >= len(rs) {
				return "", fmt.Errorf("invalid SIMILAR TO pattern %q: it ends with the escape character", pattern)
			}
			i++
			b.WriteString(regexp.QuoteMeta(string(rs[i])))
		case inBracket:
			if r == ']' {
				inBracket = false
			}
			if r == '\\' {
				b.WriteString(`\\`)
				continue
			}
			b.WriteRune(r)
		case r == '[':
			inBracket = true
			b.WriteRune(r)
		case r == '%':
			b.WriteString(".*")
		case r == '_':
			b.WriteString(".")
		case strings.ContainsRune("|*+?{}(),0123456789", r):
			b.WriteRune(r)
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	if inBracket {
		return "", fmt.Errorf("invalid SIMILAR TO pattern %q: [ is not closed", pattern)
	}
	b.WriteString(`)$`)
	return b.String(), nil
}

func (e *SimilarTo) DataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (e *SimilarTo) Children() []expr.Expr    { return []expr.Expr{e.X} }
func (e *SimilarTo) String() string {
	return fmt.Sprintf("(%s SIMILAR TO %q)", e.X, e.Pattern)
}

func (e *SimilarTo) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	return stringTest(e.X, rec, mem, e.re.MatchString)
}

// stringTest evaluates test on every row of the STRING x: NULL where x is.
func stringTest(x expr.Expr, rec arrow.RecordBatch, mem memory.Allocator, test func(string) bool) (arrow.Array, error) {
	s, arr, err := expr.EvalStringArg(x, rec, mem)
	if err != nil {
		return nil, err
	}
	n := int(rec.NumRows())
	var validity *memory.Buffer
	nulls := 0
	if arr != nil {
		defer arr.Release()
		n = arr.Len()
		validity, nulls = expr.AndValidity(mem, n, arr)
	}
	vb, out := expr.NewBits(mem, n)
	if s.IsConst() {
		bitutil.SetBitsTo(out, 0, int64(n), test(s.At(0)))
	} else {
		for i := range n {
			if arr.IsValid(i) && test(s.At(i)) {
				bitutil.SetBit(out, i)
			}
		}
	}
	return expr.NewArray(arrow.FixedWidthTypes.Boolean, n, validity, nulls, vb), nil
}
