package main

import (
	"flag"
	"fmt"
	"strings"
)

// parseInterspersed parses flags before, between and after the positional
// arguments, as DuckDB, psql and Flink's SQL client take them
// (`wsql run q.sql --format csv`); Go's flag package alone stops at the
// first positional argument. After `--` every argument is positional.
// `bench` takes its own flags: the arguments after it are returned as they
// are.
func parseInterspersed(fs *flag.FlagSet, args []string) (positional []string, err error) {
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		if len(positional) == 1 && rest[0] == "bench" {
			return append(positional, rest[1:]...), nil
		}
		args = rest[1:]
	}
}

// scriptFile is the file of SQL the positional arguments name: `run FILE`
// or a lone FILE.sql; "" when they name none.
func scriptFile(positional []string) (string, error) {
	switch {
	case len(positional) == 0:
		return "", nil
	case positional[0] == "run":
		if len(positional) != 2 {
			return "", fmt.Errorf("run takes exactly one FILE.sql")
		}
		return positional[1], nil
	case strings.HasSuffix(strings.ToLower(positional[0]), ".sql"):
		if len(positional) > 1 {
			return "", fmt.Errorf("unexpected argument %q after %s: run one FILE.sql at a time", positional[1], positional[0])
		}
		return positional[0], nil
	}
	return "", fmt.Errorf("unknown command %q", positional[0])
}
