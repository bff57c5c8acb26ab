package wsql

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestMetadataModificationTimeAndSize: 'file.modification-time' is the
// file's modification time as a TIMESTAMP_LTZ(3) and 'file.size' its
// bytes, per file, also in a WHERE (the golden metadata_columns cannot pin
// a modification time: a checkout sets it).
func TestMetadataModificationTimeAndSize(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"a.csv": "1\n2\n", "b.csv": "30\n"}
	mtimes := map[string]time.Time{
		"a.csv": time.Date(2024, 3, 1, 9, 0, 0, 123e6, time.UTC),
		"b.csv": time.Date(2024, 3, 2, 10, 30, 0, 0, time.UTC),
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		require.NoError(t, os.Chtimes(p, mtimes[name], mtimes[name]))
	}
	src := `SET 'table.local-time-zone' = 'UTC';
CREATE TABLE f (v INT, modified TIMESTAMP_LTZ(3) METADATA FROM 'file.modification-time', ` + "`file.size`" + ` BIGINT METADATA VIRTUAL)
WITH ('connector' = 'filesystem', 'path' = '` + dir + `', 'format' = 'csv');
SELECT v, modified, ` + "`file.size`" + ` FROM f WHERE ` + "`file.size`" + ` BETWEEN 3 AND 4;
`
	require.Equal(t, "v,modified,file.size\n1,2024-03-01 09:00:00.123,4\n2,2024-03-01 09:00:00.123,4\n30,2024-03-02 10:30:00.000,3\n-- 3 rows read, 0 late rows dropped, 0 bad rows skipped, 3 result rows\n", runScript(t, src, 4096))
}
