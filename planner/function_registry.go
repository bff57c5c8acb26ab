package planner

import "github.com/wsql/wsql/function"

// builtins is the registry of wsql's built-in functions, what calls
// resolve to when Options.Functions is nil.
var builtins = function.Builtins()

// functions is the registry calls resolve to.
func (o Options) functions() *function.Registry {
	if o.Functions != nil {
		return o.Functions
	}
	return builtins
}
