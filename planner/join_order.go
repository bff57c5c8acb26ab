package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/sql"
)

// joinOrder is a FROM clause of three or more table references joined by
// INNER and CROSS joins, taken apart so the planner can choose the order
// they join in: the table references in the order written, and every
// condition of the ON clauses and of WHERE (for inner joins the two are
// one condition).
type joinOrder struct {
	leaves []sql.TableRef
	at     []sql.Pos // the join that brought each leaf in, for errors
	conds  []sql.Expr
	cols   []joinColumns // each leaf's columns
}

// reorder chooses the order of an inner-joined FROM clause: the order
// written, unless a join in it would have no keys (a cross join, which
// holds every row of both sides under one key) while another order gives
// every join a key. That order starts with the first table written and
// takes, each time, the first table written that an equality joins to the
// tables before it. It returns the FROM clause to plan, the conditions to
// plan it with, and for each column of the joined rows in written order
// its index in the rows of the order chosen; nil when the order written
// stays.
func (jp *joinPlanner) reorder(from sql.TableRef, where []sql.Expr) (sql.TableRef, []sql.Expr, []int, error) {
	o := &joinOrder{conds: append([]sql.Expr(nil), where...)}
	if !o.flatten(from, from.At) || len(o.leaves) < 3 {
		return from, where, nil, nil
	}
	for _, leaf := range o.leaves {
		cols, err := jp.columnsOf(leaf)
		if err != nil {
			return from, where, nil, err
		}
		o.cols = append(o.cols, cols)
	}
	written := make([]int, len(o.leaves))
	for i := range written {
		written[i] = i
	}
	if o.keyed(written) {
		return from, where, nil, nil
	}
	order := []int{0}
	left := written[1:]
	for len(left) > 0 {
		next := -1
		for k, leaf := range left {
			if o.joins(order, leaf) {
				next = k
				break
			}
		}
		if next < 0 {
			return from, where, nil, nil // no order gives every join keys
		}
		order = append(order, left[next])
		left = append(left[:next:next], left[next+1:]...)
	}
	tree := o.leaves[order[0]]
	for _, leaf := range order[1:] {
		tree = sql.TableRef{At: tree.At, Join: &sql.Join{At: o.at[leaf], Kind: sql.InnerJoin, Left: tree, Right: o.leaves[leaf]}}
	}
	// where each leaf's columns land in the rows of the order chosen
	start := make([]int, len(o.leaves))
	n := 0
	for _, leaf := range order {
		start[leaf] = n
		n += len(o.cols[leaf])
	}
	var perm []int
	for leaf, cols := range o.cols {
		for c := range cols {
			perm = append(perm, start[leaf]+c)
		}
	}
	return tree, o.conds, perm, nil
}

// flatten collects the leaves and conditions of ref; false when ref is
// not a tree of INNER and CROSS joins of table references that may move
// (a versioned table's place is fixed by its AS OF column).
func (o *joinOrder) flatten(ref sql.TableRef, at sql.Pos) bool {
	j := ref.Join
	if j == nil {
		movable := ref.SystemTime == nil && (ref.Name.Name != "" || ref.Subquery != nil || ref.Values != nil || ref.Window != nil)
		o.leaves = append(o.leaves, ref)
		o.at = append(o.at, at)
		return movable
	}
	if j.Kind != sql.InnerJoin && j.Kind != sql.CrossJoin || len(j.Using) > 0 {
		return false
	}
	if !o.flatten(j.Left, ref.At) || !o.flatten(j.Right, j.At) {
		return false
	}
	o.conds = append(o.conds, conjuncts(j.On)...)
	return true
}

// keyed reports whether, joined in order, each leaf after the first has an
// equality with the leaves before it.
func (o *joinOrder) keyed(order []int) bool {
	for k := 1; k < len(order); k++ {
		if !o.joins(order[:k], order[k]) {
			return false
		}
	}
	return true
}

// joins reports whether a condition equates a column of the leaves of set
// with one of leaf.
func (o *joinOrder) joins(set []int, leaf int) bool {
	var cols joinColumns
	for _, l := range set {
		cols = append(cols, o.cols[l]...)
	}
	for _, c := range o.conds {
		if _, _, ok := equiKey(c, cols, o.cols[leaf]); ok {
			return true
		}
	}
	return false
}

// inWrittenOrder gives a join's rows, planned in another order, the
// column order written: perm[i] is where written column i is.
func inWrittenOrder(side joinSide, perm []int) joinSide {
	p := side.plan
	schema := p.Project.Schema
	first := 0
	if p.Updates() {
		first = 1 // the row kind stays in front
	}
	cols := make([]int, 0, schema.NumFields())
	fields := make([]arrow.Field, 0, schema.NumFields())
	for i := range first {
		cols, fields = append(cols, p.Project.Columns[i]), append(fields, schema.Field(i))
	}
	out := joinSide{plan: p, cols: make(joinColumns, len(perm)), timeAttr: -1}
	for i, at := range perm {
		cols = append(cols, p.Project.Columns[first+at])
		fields = append(fields, schema.Field(first+at))
		out.cols[i] = side.cols[at]
		if at == side.timeAttr {
			out.timeAttr = i
		}
	}
	p.TimeAttr = -1
	if out.timeAttr >= 0 {
		p.TimeAttr = out.timeAttr + first
	}
	p.Project = exec.ProjectSpec{Columns: cols, Schema: arrow.NewSchema(fields, nil)}
	return out
}
