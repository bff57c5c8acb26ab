package main

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
)

// After Ctrl-C the status line is not drawn again, and the next output
// erases the line first even if nothing of the status line is on it (the
// terminal's echoed ^C is); the next statement draws it again.
func TestStatusLineAfterInterrupt(t *testing.T) {
	var errOut bytes.Buffer
	st := &statusLine{w: &errOut}
	p := wsql.Progress{RowsRead: 10, Elapsed: time.Second}
	st.start()
	st.update(p)
	st.interrupt()
	n := errOut.Len()
	st.update(p) // a report racing the cancellation
	require.Equal(t, n, errOut.Len())
	st.print(func() { errOut.WriteString("wsql: query cancelled\n") })
	require.Equal(t, "\r\x1b[Kwsql: query cancelled\n", errOut.String()[n:])

	// interrupted with nothing drawn: the echoed ^C is erased all the same
	errOut.Reset()
	st.start()
	st.interrupt()
	st.print(func() { errOut.WriteString("+---+\n") })
	st.print(func() { errOut.WriteString("| x |\n") })
	require.Equal(t, "\r\x1b[K+---+\n| x |\n", errOut.String())

	errOut.Reset()
	st.start()
	st.update(p)
	require.Contains(t, errOut.String(), "10 rows (10 rows/s)")
}
