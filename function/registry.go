package function

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Registry holds functions by name. The compiler, SHOW FUNCTIONS, shell
// completion, "did you mean" and the SQL reference's function table all
// read one: the built-ins are one instance (Builtins).
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
	if f.Unsupported != "" && f.Runs() {
		return fmt.Errorf("function %s runs, so it cannot say why it does not", f.Name)
	}
	for _, n := range f.Names() {
		if n == "" || n != strings.ToUpper(n) {
			return fmt.Errorf("function name %q must be upper case", n)
		}
		if _, dup := r.byName[n]; dup {
			return fmt.Errorf("function %s is registered twice", n)
		}
	}
	r.add(&f)
	return nil
}

// Lookup finds a function by name or alias (upper case); nil if unknown.
func (r *Registry) Lookup(name string) *Function { return r.byName[name] }

// Functions lists the registered functions in registration order.
func (r *Registry) Functions() []*Function { return append([]*Function(nil), r.all...) }

// RunnableNames lists, sorted, the names and aliases of the functions wsql
// evaluates and the user-defined ones (SHOW FUNCTIONS).
func (r *Registry) RunnableNames() []string {
	return r.names(func(f *Function) bool { return f.Runs() || f.User })
}

// UserNames lists, sorted, the user-defined functions (SHOW USER
// FUNCTIONS).
func (r *Registry) UserNames() []string {
	return r.names(func(f *Function) bool { return f.User })
}

// With returns a copy of r that also holds f; r is unchanged, so a plan
// made with it keeps the functions it resolved.
func (r *Registry) With(f Function) (*Registry, error) {
	c := r.copy()
	if err := c.Register(f); err != nil {
		return nil, err
	}
	return c, nil
}

// Without returns a copy of r without the function named name.
func (r *Registry) Without(name string) *Registry {
	c := &Registry{byName: map[string]*Function{}}
	for _, f := range r.all {
		if f.Name != name {
			c.add(f)
		}
	}
	return c
}

func (r *Registry) copy() *Registry {
	c := &Registry{byName: make(map[string]*Function, len(r.byName)+1), all: make([]*Function, 0, len(r.all)+1)}
	for _, f := range r.all {
		c.add(f)
	}
	return c
}

func (r *Registry) add(f *Function) {
	for _, n := range f.Names() {
		r.byName[n] = f
	}
	r.all = append(r.all, f)
}

// CallableNames lists, sorted, every scalar and aggregate name, running
// or not: the names "unknown function" suggests from.
func (r *Registry) CallableNames() []string {
	return r.names(func(f *Function) bool { return f.Kind == ScalarFunction || f.Kind == AggregateFunction })
}

// GroupByNames lists, sorted, the callable names and the group windows:
// the names an unknown function in GROUP BY suggests from.
func (r *Registry) GroupByNames() []string {
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

// IsKind reports whether name is a function of kind k.
func (r *Registry) IsKind(name string, k FunctionKind) bool {
	f := r.Lookup(name)
	return f != nil && f.Kind == k
}

// IsBare reports a function that may be written without parentheses
// (CURRENT_TIMESTAMP).
func (r *Registry) IsBare(name string) bool {
	f := r.Lookup(strings.ToUpper(name))
	return f != nil && f.Bare
}

// families are the lists of built-in functions by their place in the
// registry (and so in the SQL reference's table): each family's file adds
// its list from an init function, so a new family is one new file.
var families = map[int][]Function{}

// addFamily adds a family of built-ins at place order; a place is taken
// once.
func addFamily(order int, fns []Function) {
	if _, dup := families[order]; dup {
		panic(fmt.Sprintf("function family %d is added twice", order))
	}
	families[order] = fns
}

var (
	builtinsOnce sync.Once
	builtins     *Registry
)

// Builtins is the registry of wsql's built-in functions.
func Builtins() *Registry {
	builtinsOnce.Do(func() {
		var orders []int
		for o := range families {
			orders = append(orders, o)
		}
		sort.Ints(orders)
		var lists [][]Function
		for _, o := range orders {
			lists = append(lists, families[o])
		}
		r, err := NewRegistry(lists...)
		if err != nil {
			panic(err)
		}
		builtins = r
	})
	return builtins
}
