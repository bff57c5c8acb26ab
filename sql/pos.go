package sql

import (
	"errors"
	"fmt"
	"sort"
)

// Pos is a position in the user's original SQL text (never in the rewritten
// text handed to the TiDB parser). Line and Col are 1-based; Col counts
// characters (runes), so a caret lines up under multi-byte text.
type Pos struct {
	Offset int // byte offset into the original text
	Line   int
	Col    int
}

// IsValid reports whether the position was set.
func (p Pos) IsValid() bool { return p.Line > 0 }

func (p Pos) String() string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// ErrSyntax marks errors the parser reports for text it cannot read.
// ErrUnsupported marks valid Flink SQL that wsql does not run yet.
// ErrInvalid marks statements that parse but are wrong (a name that does not
// exist, a type mismatch); later stages (catalog, planner) use it too.
var (
	ErrSyntax      = errors.New("syntax error")
	ErrUnsupported = errors.New("not supported")
	ErrInvalid     = errors.New("invalid statement")
)

// Error is one diagnostic at a position of the user's text. Kind is one of
// the sentinels above, so callers test with errors.Is.
type Error struct {
	Pos  Pos
	Kind error
	Msg  string
	// Decl, when set, says that Pos is in an earlier statement than the one
	// that failed: the CREATE TABLE of a table a query reads, about which
	// something could only be checked when the query was planned.
	Decl *Decl
}

// Decl is the earlier statement an Error's position is in.
type Decl struct {
	Name string // as the error names it, e.g. "CREATE TABLE clicks"
	Src  string // the text the position is in
}

func (e *Error) Error() string {
	if e.Decl != nil {
		return e.Pos.String() + " of " + e.Decl.Name + ": " + e.Msg
	}
	return e.Pos.String() + ": " + e.Msg
}

// Unwrap returns the sentinel kind of the error.
func (e *Error) Unwrap() error { return e.Kind }

// Errorf builds an *Error of the given kind at pos.
func Errorf(kind error, pos Pos, format string, args ...any) *Error {
	return &Error{Pos: pos, Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// ErrorList is a list of errors sorted by position, as go/scanner does it.
type ErrorList []*Error

// Sort orders the list by offset.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool { return l[i].Pos.Offset < l[j].Pos.Offset })
}

// Err returns nil for an empty list and the list otherwise.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Unwrap exposes every error of the list to errors.Is and errors.As.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}
