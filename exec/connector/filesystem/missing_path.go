package filesystem

import (
	"os"
	"path/filepath"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/sql"
)

// missingPath is the error of a table whose 'path' does not exist: the
// path as written, what a relative path is relative to (the working
// directory, not the script's), and the nearest name in its directory when
// the file name looks misspelled.
func missingPath(t *catalog.Table, path sql.Option) error {
	where := ""
	if !filepath.IsAbs(path.Value) {
		where = " (relative to the working directory)"
	}
	return sql.Errorf(sql.ErrInvalid, path.At, "table %s: path '%s'%s does not exist%s",
		t.Name, path.Value, where, nearestFile(path.Value))
}

// nearestFile suggests an existing name of path's directory close to
// path's own, in the words of sql.DidYouMean, with the directory as
// written; "" when there is none.
func nearestFile(path string) string {
	dir, base := filepath.Split(path)
	entries, err := os.ReadDir(filepath.Join(".", dir))
	if err != nil {
		return ""
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	near := sql.DidYouMean(base, names)
	for _, n := range names {
		if near != "" && near == sql.DidYouMean(base, []string{n}) {
			return "; did you mean " + dir + n + "?"
		}
	}
	return ""
}
