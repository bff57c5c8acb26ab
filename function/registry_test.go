package function

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/sql"
)

func TestRegistryRefusesDuplicatesAndLowerCase(t *testing.T) {
	r, err := NewRegistry()
	require.NoError(t, err)
	f := Function{Name: "TWICE", Kind: ScalarFunction, Description: "x twice",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgNumber}}, Result: "the type of x"}}}
	require.NoError(t, r.Register(f))
	require.Same(t, r.Lookup("TWICE"), r.Functions()[0])
	require.Error(t, r.Register(f))
	f.Name = "twice"
	require.Error(t, r.Register(f))
	f.Name, f.Signatures = "NOSIG", nil
	require.Error(t, r.Register(f))
}

func TestSignatureFormat(t *testing.T) {
	sub := Builtins().Lookup("SUBSTRING").Signatures[0]
	require.Equal(t, "SUBSTRING(s STRING, start INTEGER [, length INTEGER]) → STRING", sub.Format("SUBSTRING"))
	concat := Builtins().Lookup("CONCAT").Signatures[0]
	require.Equal(t, "CONCAT(s STRING, ...) → STRING", concat.Format("CONCAT"))
	lo, hi := Builtins().Lookup("UNIX_TIMESTAMP").Arity()
	require.Equal(t, fmt.Sprint(0, 2), fmt.Sprint(lo, hi))
}

// TestUnsupportedSaysWhy: a Flink function wsql knows but cannot run
// gives its reason at the call, and an entry cannot both run and give one.
func TestUnsupportedSaysWhy(t *testing.T) {
	r, err := NewRegistry()
	require.NoError(t, err)
	f := Function{Name: "CURRENT_ROW_TIME", Kind: ScalarFunction, Description: "the row's time",
		Signatures:  []Signature{{Result: "TIMESTAMP(3)"}},
		Unsupported: "rows carry no such time"}
	require.NoError(t, r.Register(f))
	_, err = r.Lookup("CURRENT_ROW_TIME").Bind(nil, &Call{F: &sql.FuncCall{Name: "CURRENT_ROW_TIME", At: sql.Pos{Line: 1, Col: 8}}, Name: "CURRENT_ROW_TIME"})
	require.EqualError(t, err, "1:8: function CURRENT_ROW_TIME is not supported yet: rows carry no such time")

	f.Name = "RUNS_ANYWAY"
	f.Compile = func(Compiler, *Call) (expr.Expr, error) { return nil, nil }
	require.ErrorContains(t, r.Register(f), "cannot say why")
}
