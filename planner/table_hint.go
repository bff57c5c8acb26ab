package planner

import (
	"slices"
	"strings"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/planner/setting"
	"github.com/wsql/wsql/sql"
)

// Flink's dynamic table options: a table hint, FROM t /*+ OPTIONS('k' =
// 'v') */ or INSERT INTO t /*+ OPTIONS(...) */, adds to or overrides the
// table's WITH options for one statement. The statement plans a copy of
// the table with the options merged, so the connector's planning checks
// them exactly as CREATE TABLE's (keys of the connector and its format,
// values, required keys), EXPLAIN shows what they change and the
// checkpoint identity, which lists every option of the tables read and
// written, includes them.

// hintedTable is t with the options of hint h merged into its own, or t
// when there is no hint.
func hintedTable(t *catalog.Table, h *sql.TableHint, opts Options) (*catalog.Table, error) {
	if h == nil {
		return t, nil
	}
	if opts.NoTableHints {
		// as Flink: "OPTIONS hint is allowed only when
		// table.dynamic-table-options.enabled is set to true"
		return nil, sql.Errorf(sql.ErrInvalid, h.At, "table hints are disabled: '%s' is 'false'; SET it to 'true' to use OPTIONS", setting.TableHints)
	}
	hinted := *t
	hinted.Options = slices.Clone(t.Options)
	for _, o := range h.Options {
		i := slices.IndexFunc(hinted.Options, func(w sql.Option) bool { return w.Key == o.Key })
		if i >= 0 {
			hinted.Options[i] = o
		} else {
			hinted.Options = append(hinted.Options, o)
		}
	}
	hinted.Hinted = append(catalog.Options(nil), h.Options...)
	return &hinted, nil
}

// TableHintsOff reads 'table.dynamic-table-options.enabled' (its value
// checked by SET): true when it is 'false'.
func TableHintsOff(get func(string) (string, bool)) bool {
	v, ok := get(setting.TableHints)
	return ok && strings.EqualFold(v, "false")
}

// viewHint is the error of a table hint on a view, as Flink's: a view has
// no options of its own.
func viewHint(name string, h *sql.TableHint) error {
	return sql.Errorf(sql.ErrInvalid, h.At, "view %s cannot take a table hint: OPTIONS only apply to tables", name)
}

// isHinted reports whether pos is the position of an option a hint set
// on t: an error there is in the statement, not in t's CREATE TABLE.
func isHinted(t *catalog.Table, pos sql.Pos) bool {
	return slices.ContainsFunc(t.Hinted, func(o sql.Option) bool { return o.At == pos })
}
