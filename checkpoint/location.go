package checkpoint

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/wsql/wsql/checkpoint/objectstore"
)

// A checkpoint location is a local directory or an object store's prefix
// (s3://bucket/prefix); the functions here take either, and a
// checkpoint's path is its file's path or its object's URL.

// InObjectStore reports whether location is in an object store.
func InObjectStore(location string) bool { return objectstore.IsURL(location) }

// Join is the path of name in the location dir.
func Join(dir, name string) string {
	if InObjectStore(dir) {
		return objectstore.Join(dir, name)
	}
	return filepath.Join(dir, name)
}

// List returns the names of the files in the location dir (not those of
// the directories in it).
func List(dir string) ([]string, error) {
	if InObjectStore(dir) {
		return objectstore.List(dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

// MakeDir makes the location dir if it is a local directory that is
// missing; an object store's prefix needs no making.
func MakeDir(dir string) error {
	if InObjectStore(dir) {
		_, err := objectstore.Parse(dir)
		return err
	}
	return os.MkdirAll(dir, 0o755)
}

// Dir is the location that holds the checkpoint at path.
func Dir(path string) string {
	if InObjectStore(path) {
		if i := strings.LastIndex(strings.TrimRight(path, "/"), "/"); i > len("s3://") {
			return path[:i]
		}
		return path
	}
	return filepath.Dir(path)
}
