package predicate

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// CharTest is IS_ALPHA, IS_DIGIT or IS_DECIMAL of a STRING. As Flink's
// SqlFunctionUtils, it is never NULL: NULL and the empty string are FALSE.
type CharTest struct {
	Name string // IS_ALPHA, IS_DIGIT, IS_DECIMAL
	X    expr.Expr
	test func(string) bool
}

// NewCharTest returns the test called name.
func NewCharTest(name string, x expr.Expr) (*CharTest, error) {
	test := map[string]func(string) bool{"IS_ALPHA": isAlpha, "IS_DIGIT": isDigit, "IS_DECIMAL": isDecimal}[name]
	if test == nil {
		return nil, fmt.Errorf("no character test %s", name)
	}
	return &CharTest{Name: name, X: x, test: test}, nil
}

func (e *CharTest) DataType() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (e *CharTest) Children() []expr.Expr    { return []expr.Expr{e.X} }
func (e *CharTest) String() string           { return fmt.Sprintf("%s(%s)", e.Name, e.X) }

func (e *CharTest) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	a, err := stringTest(e.X, rec, mem, e.test)
	if err != nil || a.NullN() == 0 {
		return a, err
	}
	// NULL is FALSE: the values of NULL rows are already clear
	defer a.Release()
	n := a.Len()
	vb, out := expr.NewBits(mem, n)
	bitutil.CopyBitmap(a.Data().Buffers()[1].Bytes(), a.Data().Offset(), n, out, 0)
	return expr.NewArray(arrow.FixedWidthTypes.Boolean, n, nil, 0, vb), nil
}

// isAlpha: every character a letter (Java's Character.isLetter).
func isAlpha(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) < 0
}

// isDigit: every character a digit (Java's Character.isDigit).
func isDigit(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
}

// isDecimal: the text is a number (commons-lang NumberUtils.isNumber, as
// Flink uses: an optional sign, digits with an optional point and
// exponent).
func isDecimal(s string) bool {
	if s == "" || strings.TrimSpace(s) != s || strings.ContainsAny(s, "_xXpPnN") {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil || strings.Contains(err.Error(), "range")
}
