package connector

// Scope says where an option is allowed: on a table read (source), on a
// table written (sink), or both.
type Scope uint8

const (
	Source Scope = 1 << iota
	Sink
	Both = Source | Sink
)

// String names the scope as DESCRIBE and the docs show it.
func (s Scope) String() string {
	switch s {
	case Source:
		return "source"
	case Sink:
		return "sink"
	}
	return "source, sink"
}

// Option is one WITH key of a connector or format.
type Option struct {
	Key string
	// Type is the value's kind as the docs name it: string, int, bool,
	// duration, char, timestamp, or an enumeration such as "csv | json".
	Type     string
	Default  string // "" when there is none
	Required bool
	// Description is one line for DESCRIBE and the docs.
	Description string
	Scope       Scope
}

// Keys are the keys of opts allowed in scope, in order.
func Keys(opts []Option, scope Scope) []string {
	var keys []string
	for _, o := range opts {
		if o.Scope&scope != 0 {
			keys = append(keys, o.Key)
		}
	}
	return keys
}
