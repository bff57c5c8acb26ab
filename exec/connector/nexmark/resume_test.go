package nexmark

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector/generator/generatortest"
)

func nexmarkResumeCases() []generatortest.ResumeCase {
	var cases []generatortest.ResumeCase
	for _, table := range Tables() {
		g, schema := newNexmark(table, 1234, 5)
		cases = append(cases, generatortest.ResumeCase{Name: "nexmark " + table, Maker: g, Schema: schema})
		g, _ = newNexmark(table, 15_000, 5)
		cases = append(cases, generatortest.ResumeCase{Name: "nexmark many " + table, Maker: g, Schema: schema, Big: true})
		u, _ := newNexmark(table, -1, 6)
		cases = append(cases, generatortest.ResumeCase{Name: "nexmark unbounded " + table, Maker: u, Schema: schema, Rows: 700})
	}
	// Bids with only the columns drawn before the price read.
	bid, all := newNexmark("bid", 1500, 11)
	bid.Columns, bid.Read = []int{5, 0, 1}, []bool{true, true, true}
	cases = append(cases, generatortest.ResumeCase{Name: "nexmark bid, pruned", Maker: bid,
		Schema: arrow.NewSchema([]arrow.Field{all.Field(5), all.Field(0), all.Field(1)}, nil)})
	// The event stream, whole and with only event_type and bid read.
	ev, evSchema := newEvents(1234, 5, [3]int64{})
	cases = append(cases, generatortest.ResumeCase{Name: "nexmark events", Maker: ev, Schema: evSchema})
	ev, _ = newEvents(15_000, 5, [3]int64{2, 5, 13})
	cases = append(cases, generatortest.ResumeCase{Name: "nexmark many events", Maker: ev, Schema: evSchema, Big: true})
	ev, _ = newEvents(-1, 6, [3]int64{})
	ev.Read = []bool{true, false, false, true}
	cases = append(cases, generatortest.ResumeCase{Name: "nexmark unbounded events, pruned", Maker: ev, Schema: evSchema, Rows: 700})
	// The event stream that took a kind from the WHERE.
	for kind := range int64(3) {
		ev, _ = newEvents(1234, 5, [3]int64{})
		ev.PushEquals(0, kind)
		cases = append(cases, generatortest.ResumeCase{Name: "nexmark events of kind " + ev.Only, Maker: ev, Schema: evSchema})
	}
	ev, _ = newEvents(-1, 6, [3]int64{})
	ev.PushEquals(0, kindBid)
	cases = append(cases, generatortest.ResumeCase{Name: "nexmark unbounded bid events", Maker: ev, Schema: evSchema, Rows: 700})
	return cases
}

func TestNexmarkResumesFromSavedState(t *testing.T) {
	generatortest.RunResumeCases(t, nexmarkResumeCases())
}

// A saved state that does not fit the source is refused with
// ErrCorrupt, never a panic; so is any truncation of it.
func TestNexmarkResumeRefusesBadState(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	nb, nbSchema := newNexmark("bid", 1000, 1)
	nx := generatortest.ResumeCase{Name: "nexmark", Maker: nb, Schema: nbSchema}
	generatortest.RequireDamageRefused(t, nx, mem)
	// Another generator's state.
	generatortest.RequireRefused(t, nx, mem, generatortest.State("datagen", 2, false, func(e *checkpoint.Encoder) { e.Uint(0) }),
		`"datagen" generator given to "nexmark"`)
	// Another nexmark table or other columns.
	_, nxState := generatortest.SaveAfter(t, nx, mem, 7, 2)
	na, naSchema := newNexmark("auction", 1000, 1)
	generatortest.RequireRefused(t, generatortest.ResumeCase{Maker: na, Schema: naSchema}, mem, nxState, "nexmark state of table")
	generatortest.RequireRefused(t, nx, mem, generatortest.State("nexmark", math.MinInt64, false, func(e *checkpoint.Encoder) {
		e.String("bid")
		checkpoint.Ints(e, nb.Columns)
	}), "generator at row")
	generatortest.RequireRefused(t, nx, mem, []byte{}, "")
	// The event stream with other proportions.
	ev, evSchema := newEvents(1000, 1, [3]int64{})
	evc := generatortest.ResumeCase{Maker: ev, Schema: evSchema}
	_, evState := generatortest.SaveAfter(t, evc, mem, 7, 2)
	other, _ := newEvents(1000, 1, [3]int64{1, 1, 1})
	generatortest.RequireRefused(t, generatortest.ResumeCase{Maker: other, Schema: evSchema}, mem, evState, "nexmark state of table")
	generatortest.RequireRefused(t, generatortest.ResumeCase{Maker: nb, Schema: nbSchema}, mem, evState, "nexmark state of table")
	// The whole stream's state for one kind's: its rows are numbered otherwise.
	bids, _ := newEvents(1000, 1, [3]int64{})
	bids.PushEquals(0, kindBid)
	generatortest.RequireRefused(t, generatortest.ResumeCase{Maker: bids, Schema: evSchema}, mem, evState, "nexmark state of table")
}

// A nexmark source can resume, so a job over it can be checkpointed.
func TestNexmarkCheckpointable(t *testing.T) {
	g, schema := newNexmark("person", 10, 0)
	require.NoError(t, (&exec.MakerSource{Maker: g, SourceSpec: exec.SourceSpec{Schema: schema}}).Checkpointable())
}
