package setop

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/rankop"
	"github.com/wsql/wsql/windowop"
)

// Kind is the set operation.
type Kind int

const (
	// Intersect keeps one copy of each row both sides have.
	Intersect Kind = iota
	// IntersectAll keeps min(l, r) copies of a row the left side has l
	// times and the right side r times.
	IntersectAll
	// Except keeps one copy of each row of the left side the right side
	// does not have.
	Except
	// ExceptAll keeps max(l - r, 0) copies.
	ExceptAll
)

// String is the operator as written.
func (k Kind) String() string {
	return [...]string{"INTERSECT", "INTERSECT ALL", "EXCEPT", "EXCEPT ALL"}[k]
}

// copies is how many copies of a row the operation keeps for l left and
// r right rows equal to it.
func (k Kind) copies(l, r int64) int64 {
	switch k {
	case Intersect:
		if l > 0 && r > 0 {
			return 1
		}
	case IntersectAll:
		return min(l, r)
	case Except:
		if l > 0 && r == 0 {
			return 1
		}
	case ExceptAll:
		return max(l-r, 0)
	}
	return 0
}

// Config describes a set operation over one append-only stream of both
// sides' rows: the rows' columns, then a BOOLEAN column, last, that is
// true for a row of the right side.
type Config struct {
	Input *arrow.Schema
	Kind  Kind
}

func (c Config) check() error {
	if c.Input == nil || c.Input.NumFields() < 2 {
		return fmt.Errorf("set operation: the input needs the rows' columns and the side")
	}
	if side := c.Input.Field(c.Input.NumFields() - 1); side.Type.ID() != arrow.BOOL {
		return fmt.Errorf("set operation: the side column %s is not a BOOLEAN", side.Name)
	}
	for _, f := range c.Input.Fields()[:c.Input.NumFields()-1] {
		if err := rankop.CheckKeyType(f.Type); err != nil {
			return fmt.Errorf("%s of a %s column is not supported yet", c.Kind, f.Type)
		}
	}
	return nil
}

// OutputSchema is the row kind (op), then the rows' columns.
func (c Config) OutputSchema() (*arrow.Schema, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	fields := []arrow.Field{windowop.RowKindField()}
	fields = append(fields, c.Input.Fields()[:c.Input.NumFields()-1]...)
	return arrow.NewSchema(fields, nil), nil
}
