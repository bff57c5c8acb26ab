package golden

import (
	"errors"
	"io/fs"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// Check compares got with the golden file at path, or writes got there
// when the run was given -rewrite.
func Check(t testing.TB, path, got string) {
	t.Helper()
	if Rewrite() {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing golden %s: run the test with -rewrite and review the new file", path)
	}
	require.NoError(t, err)
	require.Equal(t, string(want), got, "%s differs; if the change is intended, run the test with -rewrite and review the diff", path)
}
