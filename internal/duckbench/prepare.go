package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
)

// dataRE reads the line of `wsql bench` that names its CSV file.
var dataRE = regexp.MustCompile(`(?m)^data: (.+), (\d+) rows, `)

// prepare has `wsql bench` generate (or reuse) its CSV file of rows rows
// and write each query's script, by running it once for each query: the
// data and the scripts are then exactly the bench's, and that run warms
// the page cache. dir "" is the bench's default directory. It returns the
// CSV file and the script of each query.
func prepare(wsql, dir string, rows int64, qs []query) (csv string, scripts map[string]string, err error) {
	scripts = map[string]string{}
	for _, q := range qs {
		args := []string{"bench", "--rows", strconv.FormatInt(rows, 10), "--runs", "1", "--query", q.name}
		if dir != "" {
			args = append(args, "--dir", dir)
		}
		_, _, stderr, err := runChild(exec.Command(wsql, args...))
		if err != nil {
			return "", nil, fmt.Errorf("preparing %s with wsql bench: %w", q.name, err)
		}
		m := dataRE.FindStringSubmatch(stderr)
		if m == nil || m[2] != strconv.FormatInt(rows, 10) {
			return "", nil, fmt.Errorf("wsql bench did not name its %d-row data file on stderr:\n%s", rows, stderr)
		}
		csv = m[1]
		script := filepath.Join(filepath.Dir(csv), fmt.Sprintf("%s-%d.sql", q.name, rows))
		if _, err := os.Stat(script); err != nil {
			return "", nil, fmt.Errorf("wsql bench wrote no script for %s: %w", q.name, err)
		}
		scripts[q.name] = script
	}
	return csv, scripts, nil
}
