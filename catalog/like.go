package catalog

import (
	"fmt"
	"strings"

	"github.com/wsql/wsql/sql"
)

// MergeLike resolves CREATE TABLE ... LIKE source [(options)] into the
// statement it stands for, by Flink's merging rules: the source's
// physical columns first, then the new table's; each feature (GENERATED
// computed columns, METADATA columns, WATERMARKS, CONSTRAINTS, OPTIONS)
// taken from the source (INCLUDING, an error when both define it), not
// taken (EXCLUDING), or taken with the new table's definitions winning
// (OVERWRITING). Without options: INCLUDING ALL, OVERWRITING OPTIONS.
func (c *Catalog) MergeLike(stmt *sql.CreateTable) (*sql.CreateTable, error) {
	l := stmt.Like
	if c.View(l.Table.Name) != nil {
		return nil, sql.Errorf(sql.ErrInvalid, l.Table.At, "%s is a view; the source of LIKE must be a table", l.Table.Name)
	}
	src := c.Table(l.Table.Name)
	if src == nil {
		return nil, sql.Errorf(sql.ErrInvalid, l.Table.At, "source table %s of LIKE does not exist%s", l.Table.Name, sql.DidYouMean(l.Table.Name, c.TableNames()))
	}
	if src.Def == nil {
		return nil, sql.Errorf(sql.ErrUnsupported, l.Table.At, "table %s was registered from Go without a CREATE TABLE; LIKE cannot copy it", src.Name)
	}
	mode := map[string]string{"CONSTRAINTS": "INCLUDING", "GENERATED": "INCLUDING", "METADATA": "INCLUDING", "OPTIONS": "OVERWRITING", "WATERMARKS": "INCLUDING", "PARTITIONS": "INCLUDING"}
	for _, o := range l.Options {
		if o.Feature != "ALL" {
			mode[o.Feature] = o.Mode
			continue
		}
		for k := range mode {
			mode[k] = o.Mode
		}
	}
	def := src.Def
	out := *stmt
	out.Like, out.Columns, out.Watermark, out.PrimaryKey, out.Options = nil, nil, nil, nil, nil
	for _, col := range def.Columns {
		kind := columnFeature(col)
		if kind == "" || mode[kind] != "EXCLUDING" {
			out.Columns = append(out.Columns, col)
		}
	}
	for _, col := range stmt.Columns {
		i := columnIndex(out.Columns, col.Name.Name)
		if i < 0 {
			out.Columns = append(out.Columns, col)
			continue
		}
		kind := columnFeature(out.Columns[i])
		if kind == "" || columnFeature(col) != kind || mode[kind] != "OVERWRITING" {
			what := map[string]string{"": "column", "GENERATED": "computed column", "METADATA": "metadata column"}[kind]
			hint := ""
			if kind != "" {
				hint = fmt.Sprintf("; you might want to specify EXCLUDING %s or OVERWRITING %s", kind, kind)
			}
			return nil, sql.Errorf(sql.ErrInvalid, col.Name.At, "a %s named %s already exists in the base table %s%s", what, col.Name.Name, src.Name, hint)
		}
		out.Columns[i] = col
	}
	out.Watermark = stmt.Watermark
	if w := def.Watermark; w != nil && mode["WATERMARKS"] != "EXCLUDING" {
		switch {
		case stmt.Watermark == nil:
			out.Watermark = w
		case mode["WATERMARKS"] == "INCLUDING":
			return nil, sql.Errorf(sql.ErrInvalid, stmt.Watermark.At, "there already exists a watermark for column %s in the base table %s; you might want to specify EXCLUDING WATERMARKS or OVERWRITING WATERMARKS", w.Column.Name, src.Name)
		}
	}
	out.PrimaryKey = stmt.PrimaryKey
	if k := def.PrimaryKey; k != nil && mode["CONSTRAINTS"] == "INCLUDING" {
		if stmt.PrimaryKey != nil {
			return nil, sql.Errorf(sql.ErrInvalid, stmt.PrimaryKey.At, "the base table %s already has a primary key; you might want to specify EXCLUDING CONSTRAINTS", src.Name)
		}
		out.PrimaryKey = k
	}
	out.PartitionedBy = stmt.PartitionedBy
	if def.PartitionedBy != nil && mode["PARTITIONS"] == "INCLUDING" {
		if stmt.PartitionedBy != nil {
			return nil, sql.Errorf(sql.ErrInvalid, stmt.PartitionedBy[0].At, "the base table %s already has partitions defined; you might want to specify EXCLUDING PARTITIONS", src.Name)
		}
		out.PartitionedBy = def.PartitionedBy
	}
	if mode["OPTIONS"] != "EXCLUDING" {
		out.Options = append(out.Options, def.Options...)
	}
	for _, o := range stmt.Options {
		i := optionIndex(out.Options, o.Key)
		switch {
		case i < 0:
			out.Options = append(out.Options, o)
		case mode["OPTIONS"] == "OVERWRITING":
			out.Options[i] = o
		default:
			return nil, sql.Errorf(sql.ErrInvalid, o.At, "there already exists an option ['%s' -> '%s'] in the base table %s; you might want to specify EXCLUDING OPTIONS or OVERWRITING OPTIONS", o.Key, out.Options[i].Value, src.Name)
		}
	}
	return &out, nil
}

// columnFeature is the LIKE feature a column belongs to: GENERATED,
// METADATA, or "" for a physical column (always taken).
func columnFeature(c sql.ColumnDef) string {
	switch {
	case c.Computed != nil:
		return "GENERATED"
	case c.Metadata:
		return "METADATA"
	}
	return ""
}

func columnIndex(cols []sql.ColumnDef, name string) int {
	for i, c := range cols {
		if strings.EqualFold(c.Name.Name, name) {
			return i
		}
	}
	return -1
}

func optionIndex(opts []sql.Option, key string) int {
	for i, o := range opts {
		if o.Key == key {
			return i
		}
	}
	return -1
}
