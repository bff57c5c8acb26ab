package windowop

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// UserRetracter is a UserAccumulator that can take rows out again, as a
// Flink AggregateFunction with a retract method: Retract(arg, rows) undoes
// Accumulate of the rows rows of arg (indexes, in arrival order). A user
// aggregate over an update stream needs it.
type UserRetracter interface {
	UserAccumulator
	Retract(arg arrow.Array, rows []int) error
}

// UserRetractable is a UserAggregate that tells whether its accumulators
// are UserRetracters; an aggregate without the method is taken to have
// none.
type UserRetractable interface {
	Retracts() bool
}

// retractUser is a user aggregate with retraction: its accumulators'
// Retract gets each slot's rows taken out, as update hands Accumulate the
// rows folded in.
type retractUser struct{ *userAcc }

func newRetractUser(fn UserAggregate) (*retractUser, error) {
	acc, err := newUserAcc(fn)
	if err != nil {
		return nil, err
	}
	if r, ok := fn.(UserRetractable); !ok || !r.Retracts() {
		return nil, fmt.Errorf("%s over an update stream needs its accumulator to implement Retract(arg, rows), "+
			"as Flink needs an aggregate function's retract method", fn.Name())
	}
	return &retractUser{acc}, nil
}

func (a *retractUser) retract(col arrow.Array, slots []int32, from, to int) {
	a.eachSlot(slots, from, to, true, func(s int32, rows []int) error {
		return a.accs[s].(UserRetracter).Retract(col, rows)
	})
}
