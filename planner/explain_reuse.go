package planner

import (
	"fmt"
	"strings"
)

// markReused shows in the operator trees of p's inputs (children, one per
// plan of p.Union) the windowed sub-plans they share when they run
// (subplan_reuse.go), as Flink prints sub-plan reuse: the window of the
// query that runs it ends in "(reuse_id=[n])", and in a query that reads
// its output "Reused(reference_id=[n])" stands for the window and what
// it reads. A tree whose lines do not match the plan is left as it is.
func (p *Plan) markReused(children []string) []string {
	job, err := p.unionJob()
	if err != nil {
		return children
	}
	shared := sharedWindows(job.Union)
	if len(shared) == 0 {
		return children
	}
	lines := make([][]string, len(children))
	for i, c := range children {
		lines[i] = strings.Split(strings.TrimRight(c, "\n"), "\n")
	}
	ids := map[[2]int]int{} // (query, depth) of a window run for others ─▶ its id
	var cuts []struct{ query, at, id int }
	for _, s := range shared {
		from, ok := windowLine(lines[s.from], p.Union[s.from], s.fromDepth)
		at, ok2 := windowLine(lines[s.query], p.Union[s.query], s.depth)
		if !ok || !ok2 {
			return children
		}
		key := [2]int{s.from, s.fromDepth}
		id, seen := ids[key]
		if !seen {
			id = len(ids) + 1
			ids[key] = id
			lines[s.from][from] += fmt.Sprintf("(reuse_id=[%d])", id)
		}
		cuts = append(cuts, struct{ query, at, id int }{s.query, at, id})
	}
	for _, c := range cuts {
		l := lines[c.query]
		lines[c.query] = append(l[:c.at:c.at], treePrefix(l[c.at])+fmt.Sprintf("Reused(reference_id=[%d])", c.id))
	}
	out := make([]string, len(children))
	for i, l := range lines {
		out[i] = strings.Join(l, "\n") + "\n"
	}
	return out
}

// windowLine finds in tree, the operator tree of plan b, the line of the
// window of the plan at depth of b's chain: that plan's own tree is the
// tail of b's, its window below its projection, HAVING filter and the
// calculation after its window.
func windowLine(tree []string, b *Plan, depth int) (int, bool) {
	q := b
	for range depth {
		if q = q.Input; q == nil {
			return 0, false
		}
	}
	own := strings.Split(strings.TrimRight(q.Explain(), "\n"), "\n")
	base := len(tree) - len(own)
	if base < 0 {
		return 0, false
	}
	for k, line := range own {
		if nodeText(tree[base+k]) != nodeText(line) {
			return 0, false
		}
	}
	at := 1 // below the projection
	if q.Having != nil {
		at++
	}
	if q.PostWindow != nil {
		at++
	}
	if at >= len(own) || !strings.HasPrefix(nodeText(own[at]), "WindowAggregate(") {
		return 0, false
	}
	return base + at, true
}

// nodeText is an operator tree's line without the tree drawn before it.
func nodeText(line string) string { return strings.TrimLeft(line, " :+-") }

// treePrefix is the tree drawn before a line's operator.
func treePrefix(line string) string { return line[:len(line)-len(nodeText(line))] }
