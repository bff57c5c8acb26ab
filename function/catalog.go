package function

import "github.com/wsql/wsql/exec/expr"

// init adds the family at its place in the registry.
func init() { addFamily(470, catalogFunctions) }

// currentDatabase is the name of wsql's one database, which Flink names
// its default one (the engine's USE and SHOW CURRENT DATABASE name it too).
const currentDatabase = "default_database"

// catalogFunctions are Flink's catalog functions.
var catalogFunctions = []Function{
	{Name: "CURRENT_DATABASE", Kind: ScalarFunction, Description: "the current database: wsql has one, `default_database`",
		Signatures: []Signature{{Result: "STRING"}},
		Constant: func(Compiler, string) expr.Expr {
			return &expr.Literal{Type: tString, Str: currentDatabase}
		}},
}
