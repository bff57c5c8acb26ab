package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/wsql/wsql"
)

// describeCommand runs \d: without a name it lists the tables and views
// with their kind and connector, as psql's \d lists relations; with one it
// describes that table or view. The name is not SQL, so an error about it
// shows no statement and no caret.
func (s *shell) describeCommand(ctx context.Context, args []string) {
	out := wsql.Output{NewWriter: s.newWriter}
	var err error
	switch name, ok := describedName(args); {
	case !ok:
		fmt.Fprintln(s.stderr, `error: \d takes at most one table name`)
		return
	case name == "" && len(s.engine.TableNames()) == 0:
		fmt.Fprintln(s.stdout, "no tables yet: create one with CREATE TABLE")
		return
	case name == "":
		err = s.engine.ListTables(ctx, out)
	default:
		err = s.engine.Describe(ctx, name, out)
	}
	if err != nil {
		fmt.Fprintln(s.stderr, wsql.FormatError("", err))
	}
}

// describedName is the table name of \d's arguments: "" for none, one
// word, or a name quoted in backticks as in Flink SQL (`my table`); a
// trailing ';' is dropped. ok is false for more than one name.
func describedName(args []string) (name string, ok bool) {
	name = strings.TrimSpace(strings.TrimSuffix(strings.Join(args, " "), ";"))
	if len(name) >= 2 && name[0] == '`' && name[len(name)-1] == '`' {
		return strings.ReplaceAll(name[1:len(name)-1], "``", "`"), true
	}
	return name, len(args) <= 1
}
