package function

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
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
