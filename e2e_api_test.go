package wsql

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/rowtime"
	"github.com/wsql/wsql/sql"
)

// TestEndToEndThroughGoAPI runs every statement of every testdata/e2e
// script on its own through the Go API — statements with rows through
// Query and its streaming Rows, the others through Run — with a deferred
// check that no panic escapes. What they give must be the script's golden,
// without the warnings (Query has no place for them).
func TestEndToEndThroughGoAPI(t *testing.T) {
	for _, path := range e2eScripts(t) {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".sql"), func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			want, err := os.ReadFile(strings.TrimSuffix(path, ".sql") + ".out")
			require.NoError(t, err)
			got := runThroughAPI(t, string(src))
			require.Equal(t, withoutWarnings(string(want)), got)
		})
	}
}

// runThroughAPI runs src statement by statement on one Engine and renders
// what the API gives as runScript does. A panic reaching it fails the test.
func runThroughAPI(t *testing.T, src string) (out string) {
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("a panic escaped the Go API: %v", r)
		}
	}()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	clock := rowtime.NewManualClock(time.Date(2024, 3, 1, 9, 30, 0, 0, time.UTC))
	e := New(WithAllocator(mem), WithBatchSize(4096), WithClock(clock))
	defer e.Close()
	ctx := context.Background()
	var b bytes.Buffer
	stmts, err := sql.Parse(src)
	if err != nil {
		// the same error from the API, and nothing run
		apiErr := e.Exec(ctx, src)
		require.Error(t, apiErr)
		return FormatError(src, apiErr) + "\n"
	}
	for i, st := range stmts {
		end := len(src)
		if i+1 < len(stmts) {
			end = stmts[i+1].Pos().Offset
		}
		text := statementAlone(src, st.Pos().Offset, end)
		if err := runStatementThroughAPI(ctx, e, st, text, &b); err != nil {
			b.WriteString(FormatError(src, asOneScript(t, err)) + "\n")
			break
		}
	}
	return b.String()
}

// asOneScript is err as the script run whole gives it: an error about a
// table declared by an earlier statement (and so an earlier Run here) names
// that CREATE TABLE, whose position is the same in the whole script.
func asOneScript(t *testing.T, err error) error {
	var e *sql.Error
	if errors.As(err, &e) && e.Decl != nil {
		require.True(t, strings.HasPrefix(e.Decl.Name, "CREATE TABLE "), e.Decl.Name)
		require.Contains(t, e.Decl.Src, "CREATE TABLE", "the CREATE's own text")
		e.Decl = nil
	}
	return err
}

// statementAlone is src with everything outside [from, to) blanked out,
// line ends kept: the statement alone, at its line and column.
func statementAlone(src string, from, to int) string {
	var b strings.Builder
	for _, r := range src[:from] {
		if r == '\n' {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
		}
	}
	b.WriteString(src[from:to])
	return b.String()
}

// runStatementThroughAPI runs one statement: with rows through Query,
// written as CSV (a SELECT followed by its summary), others through Run.
func runStatementThroughAPI(ctx context.Context, e *Engine, st sql.Statement, text string, b *bytes.Buffer) error {
	if !returnsRows(st) {
		return e.Run(ctx, text, Output{
			NewWriter: func(r ResultInfo) (ResultWriter, error) { return NewCSVWriter(b, r.Schema, r.Location), nil },
			OnText:    func(s string) { b.WriteString(s) },
			Stdout:    b,
			OnSummary: func(s Summary) { fmt.Fprintf(b, "-- %s\n", s.Counts()) },
		})
	}
	rows, err := e.Query(ctx, text)
	if err != nil {
		return err
	}
	w := NewCSVWriter(b, rows.Schema(), rows.Location())
	for batch, err := range rows.All() {
		if err != nil {
			break
		}
		if err := w.WriteBatch(batch); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	if _, ok := st.(*sql.Select); ok {
		fmt.Fprintf(b, "-- %s\n", rows.Summary().Counts())
	}
	return rows.Err()
}

// withoutWarnings removes the warnings from a script's output: a line
// "warning: ..." and, when the warning has a position, the statement's
// line and the caret under it.
func withoutWarnings(text string) string {
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "warning: ") {
			b.WriteString(lines[i])
			continue
		}
		if i+2 < len(lines) && strings.Trim(lines[i+2], " \t\n") == "^" {
			i += 2
		}
	}
	return b.String()
}
