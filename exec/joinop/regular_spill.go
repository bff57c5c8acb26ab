package joinop

import (
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/rowstore"
)

// StateBudget is the memory the rows a job's operators keep (in row
// stores: its joins', Top-Ns', OVER aggregations') share before the
// oldest go to a spill file ('wsql.state.spill-after'; rowstore.Budget
// says why one budget per job). The exec package reaches it here.
type StateBudget = rowstore.Budget

// NewStateBudget is a budget of limit bytes (0: never spill) whose spill
// files go in dir (os.TempDir() when empty).
func NewStateBudget(limit int64, dir string) *StateBudget { return rowstore.NewBudget(limit, dir) }

// WithStateBudget is mem marked so that the row stores made with it
// spill within b.
func WithStateBudget(mem memory.Allocator, b *StateBudget) memory.Allocator {
	return rowstore.WithBudget(mem, b)
}
