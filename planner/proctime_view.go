package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/sql"
)

// proctimeMetadataKey marks a result column that is a processing-time
// attribute: PROCTIME() in the select list of a view or subquery
// (Nexmark q12's CREATE VIEW B AS SELECT *, PROCTIME() AS p_time FROM
// bid). An outer query windows or deduplicates by it as by a table's
// PROCTIME() column; like that column, it has no value to read yet.
const proctimeMetadataKey = "wsql.proctime"

func isProctimeCall(e sql.Expr) bool {
	f, ok := e.(*sql.FuncCall)
	return ok && strings.EqualFold(f.Name, "PROCTIME") && len(f.Args) == 0
}

func isProctimeField(f arrow.Field) bool {
	v, ok := f.Metadata.GetValue(proctimeMetadataKey)
	return ok && v == "true"
}

// proctimeItem adds the select item PROCTIME() of a view or subquery as a
// processing-time attribute column. Its rows carry no value: the outer
// query may only use it as a time attribute.
func (s *selectPlanner) proctimeItem(item sql.SelectItem, i int, opts Options, p *Plan, fields *[]arrow.Field) error {
	if !opts.derived {
		return sql.Errorf(sql.ErrUnsupported, item.Expr.Pos(), "PROCTIME() has no value to show yet; select it in a view or subquery to window or deduplicate by processing time")
	}
	name := item.Alias
	if name == "" {
		name = fmt.Sprintf("EXPR$%d", i)
	}
	appendProctime(name, p, fields)
	return nil
}

// appendProctime adds a processing-time attribute column named name to
// the plan's result.
func appendProctime(name string, p *Plan, fields *[]arrow.Field) {
	var earlier []string
	for _, f := range *fields {
		earlier = append(earlier, f.Name)
	}
	ltz := &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}
	*fields = append(*fields, arrow.Field{Name: uniqueName(name, earlier), Type: ltz, Nullable: true,
		Metadata: arrow.NewMetadata([]string{proctimeMetadataKey}, []string{"true"})})
	p.Project.Exprs = append(p.Project.Exprs, expr.NullLiteral(ltz))
}
