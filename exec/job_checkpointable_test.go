package exec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
)

// readOnceMaker is a BatchMaker that cannot resume, as the tables a Go
// program attaches cannot.
type readOnceMaker struct{}

func (readOnceMaker) Open(memory.Allocator, *arrow.Schema, int) (BatchReader, error) {
	return nil, ErrSource
}
func (readOnceMaker) Explain() string { return "connector=[read once]" }
func (readOnceMaker) Bounded() bool   { return true }

// A connector that cannot resume is refused a saved state, and a job over
// it cannot be checkpointed (the generators' tests check theirs can).
func TestJobOverSourceThatCannotResumeIsNotCheckpointable(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	src := &MakerSource{Maker: readOnceMaker{}, SourceSpec: SourceSpec{Schema: schema}}
	_, err := src.Open(mem, checkpoint.NewDecoder(nil))
	require.ErrorIs(t, err, ErrCheckpointUnsupported)
	require.ErrorContains(t, (&Job{Source: src}).checkpointable(), "cannot resume from a position")
}
