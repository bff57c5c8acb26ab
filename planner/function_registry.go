package planner

import (
	"fmt"
	"sort"
	"strings"
)

// Registry holds functions by name. The compiler, SHOW FUNCTIONS, shell
// completion, "did you mean" and the SQL reference's function table all
// read one: the built-ins are one instance (Builtins), and functions
// written in Go can be registered the same way (user-defined functions
// will need an exported form of the kernels, which are unexported today).
type Registry struct {
	byName map[string]*Function
	all    []*Function // in registration order
}

// NewRegistry returns a registry holding fns.
func NewRegistry(fns ...[]Function) (*Registry, error) {
	r := &Registry{byName: map[string]*Function{}}
	for _, list := range fns {
		for i := range list {
			if err := r.Register(list[i]); err != nil {
				return nil, err
			}
		}
	}
	return r, nil
}

// Register adds f. Names are upper case and unique across names and
// aliases, and a function that runs as a call has a signature.
func (r *Registry) Register(f Function) error {
	if f.Kind == 0 || f.Description == "" {
		return fmt.Errorf("function %s: kind and description are required", f.Name)
	}
	if f.Syntax == SyntaxCall && len(f.Signatures) == 0 {
		return fmt.Errorf("function %s: no signature", f.Name)
	}
	for _, n := range f.Names() {
		if n == "" || n != strings.ToUpper(n) {
			return fmt.Errorf("function name %q must be upper case", n)
		}
		if _, dup := r.byName[n]; dup {
			return fmt.Errorf("function %s is registered twice", n)
		}
	}
	p := &f
	for _, n := range f.Names() {
		r.byName[n] = p
	}
	r.all = append(r.all, p)
	return nil
}

// Lookup finds a function by name or alias (upper case); nil if unknown.
func (r *Registry) Lookup(name string) *Function { return r.byName[name] }

// Functions lists the registered functions in registration order.
func (r *Registry) Functions() []*Function { return append([]*Function(nil), r.all...) }

// RunnableNames lists, sorted, the names and aliases of the functions wsql
// evaluates (SHOW FUNCTIONS).
func (r *Registry) RunnableNames() []string {
	return r.names(func(f *Function) bool { return f.Runs() })
}

// callableNames lists, sorted, every scalar and aggregate name, running
// or not: the names "unknown function" suggests from.
func (r *Registry) callableNames() []string {
	return r.names(func(f *Function) bool { return f.Kind == ScalarFunction || f.Kind == AggregateFunction })
}

// groupByNames lists, sorted, the callable names and the group windows:
// the names an unknown function in GROUP BY suggests from.
func (r *Registry) groupByNames() []string {
	return r.names(func(f *Function) bool {
		return f.Kind == ScalarFunction || f.Kind == AggregateFunction || f.Kind == WindowFunction
	})
}

func (r *Registry) names(keep func(*Function) bool) []string {
	var out []string
	for _, f := range r.all {
		if keep(f) {
			out = append(out, f.Names()...)
		}
	}
	sort.Strings(out)
	return out
}

// isKind reports whether name is a function of kind k.
func (r *Registry) isKind(name string, k FunctionKind) bool {
	f := r.Lookup(name)
	return f != nil && f.Kind == k
}

// isBare reports a function that may be written without parentheses
// (CURRENT_TIMESTAMP).
func (r *Registry) isBare(name string) bool {
	f := r.Lookup(strings.ToUpper(name))
	return f != nil && f.Bare
}

// builtins are wsql's functions, one list per family.
var builtins = mustRegistry(stringFunctions, conditionalFunctions, mathFunctions, timeFunctions,
	aggregateFunctions, windowFunctions)

func mustRegistry(fns ...[]Function) *Registry {
	r, err := NewRegistry(fns...)
	if err != nil {
		panic(err)
	}
	return r
}

// Builtins is the registry of wsql's built-in functions.
func Builtins() *Registry { return builtins }

// FunctionNames lists what SHOW FUNCTIONS prints: the functions wsql runs.
func FunctionNames() []string { return builtins.RunnableNames() }
