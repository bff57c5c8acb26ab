package planner

import (
	"fmt"
	"strings"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/sqlfmt"
	"github.com/wsql/wsql/windowop"
)

// Ordering is what ends a query: ORDER BY a time attribute, Flink's
// temporal sort (rows are released in order as the watermark passes
// them), and LIMIT, which ends the run once its rows are out.
type Ordering struct {
	Keys    []exec.SortKey // result columns, the time attribute first; nil without ORDER BY
	Limit   int64          // -1 without LIMIT
	LimitAt sql.Pos
	text    []string // the keys as EXPLAIN shows them
}

// planOrderLimit plans the query without its ORDER BY and LIMIT, then
// orders and limits its result rows.
func planOrderLimit(stmt *sql.Select, cat *catalog.Catalog, opts Options) (*Plan, error) {
	q := *stmt
	q.OrderBy, q.Limit = nil, nil
	p, err := PlanSelect(&q, cat, opts)
	if err != nil {
		return nil, err
	}
	o := &Ordering{Limit: -1}
	if stmt.Limit != nil {
		o.Limit, o.LimitAt = stmt.Limit.Count, stmt.Limit.At
	}
	schema := p.Schema()
	if schema.NumFields() > 0 && windowop.IsRowKindField(schema.Field(0)) {
		node, _ := p.updateNode()
		if stmt.Limit != nil {
			return nil, sql.Errorf(sql.ErrUnsupported, stmt.Limit.At, "LIMIT over the update stream of %s is not supported yet", node)
		}
		return nil, sql.Errorf(sql.ErrUnsupported, stmt.OrderBy[0].At, "ORDER BY over the update stream of %s is not supported yet", node)
	}
	for i, it := range stmt.OrderBy {
		col, err := orderColumn(it, stmt, schemaNames(p))
		if err != nil {
			return nil, err
		}
		if i == 0 && (col != p.TimeAttr || it.Desc) {
			if stmt.Limit != nil && !it.Desc {
				return nil, sql.Errorf(sql.ErrUnsupported, it.At, "ORDER BY a column that is not a time attribute with LIMIT (Top-N) is not supported yet")
			}
			// Flink's reason: only the temporal sort runs on a stream.
			return nil, sql.Errorf(sql.ErrUnsupported, it.At, "Sort on a non-time-attribute field is not supported. ORDER BY must start with the time attribute ascending%s", timeAttrHint(p))
		}
		o.Keys = append(o.Keys, exec.SortKey{Column: col, Desc: it.Desc})
		t := schema.Field(col).Name
		if it.Desc {
			t += " DESC"
		} else {
			t += " ASC"
		}
		o.text = append(o.text, t)
	}
	p.Order = o
	return p, nil
}

// timeAttrHint names the result's time attribute, or says it has none.
func timeAttrHint(p *Plan) string {
	if p.TimeAttr < 0 {
		return "; this query's result has no time attribute"
	}
	return fmt.Sprintf(", here %s", p.Schema().Field(p.TimeAttr).Name)
}

func schemaNames(p *Plan) []string { return fieldNames(p.Schema()) }

// orderColumn resolves an ORDER BY key to a result column: its name, its
// position (ORDER BY 1), or an expression of the select list.
func orderColumn(it sql.OrderItem, stmt *sql.Select, names []string) (int, error) {
	if it.Expr == nil {
		if n := it.Position; n < 1 || n > len(names) {
			return 0, sql.Errorf(sql.ErrInvalid, it.At, "ORDER BY position %d is not in the select list of %d columns", n, len(names))
		}
		return it.Position - 1, nil
	}
	switch e := it.Expr.(type) {
	case *sql.ColumnRef:
		for i, n := range names {
			if strings.EqualFold(n, e.Name) {
				return i, nil
			}
		}
	}
	text := sqlfmt.Expr(it.Expr)
	for i, item := range stmt.Items {
		if item.Expr != nil && sqlfmt.Expr(item.Expr) == text && !hasStar(stmt) {
			return i, nil
		}
	}
	return 0, sql.Errorf(sql.ErrUnsupported, it.At, "ORDER BY %s: sorting by what the select list does not show is not supported yet; select it", text)
}

func hasStar(stmt *sql.Select) bool {
	for _, it := range stmt.Items {
		if it.Star {
			return true
		}
	}
	return false
}

// explainOrder adds the temporal sort and the limit above the query.
func (p *Plan) explainOrder(add func(int, string, ...any), depth int) int {
	o := p.Order
	if o == nil {
		return depth
	}
	if o.Limit >= 0 {
		add(depth, "Limit(offset=[0], fetch=[%d], ends the run once its rows are out)", o.Limit)
		depth++
	}
	if len(o.Keys) > 0 {
		add(depth, "TemporalSort(orderBy=[%s], emit=[rows in order as the watermark passes them; late rows dropped])", strings.Join(o.text, ", "))
		depth++
	}
	return depth
}

// orderSpec is the job's ordering, or nil.
func (p *Plan) orderSpec() *exec.OrderSpec {
	o := p.Order
	if o == nil {
		return nil
	}
	return &exec.OrderSpec{Keys: o.Keys, Limit: o.Limit}
}
