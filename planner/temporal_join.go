package planner

import (
	"strings"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/joinop"
	"github.com/wsql/wsql/sql"
)

// versionedTable is a table read FOR SYSTEM_TIME AS OF: the right side of
// a temporal join, whose rows are versions of its primary key's rows.
type versionedTable struct {
	period     *sql.ColumnRef // the column of AS OF, the probe side's
	name       string
	primaryKey []string       // nil when the table declares none
	table      *catalog.Table // nil for a view
}

// temporalJoin makes cfg an event-time temporal join, as Flink's
// TemporalRowTimeJoinOperator: each left row joins the version of the
// right row with its key that was valid at the left row's time. The AS OF
// column must be the left side's rowtime, the right side needs a rowtime
// and a PRIMARY KEY, and ON must equate its columns (Flink's rules and
// reasons). Equalities on other columns join as conditions. It returns
// the conjuncts left for the residual condition.
func temporalJoin(cfg *joinop.Config, l, r joinSide, jpl *JoinPlan, rest []sql.Expr) ([]sql.Expr, error) {
	v := r.versioned
	at := v.period.At
	pi, err := l.cols.find(v.period)
	if err != nil {
		// a PROCTIME() column is no column of the side's rows
		return nil, sql.Errorf(sql.ErrUnsupported, at, "FOR SYSTEM_TIME AS OF %s: %s is not a column of the left side's rows; if it is a PROCTIME() column: processing-time temporal joins are not supported yet", v.period.Name, v.period.Name)
	}
	if pi != l.timeAttr {
		if f := l.plan.Schema().Field(l.dataIndex(pi)); isProctimeField(f) {
			return nil, sql.Errorf(sql.ErrUnsupported, at, "processing-time temporal joins (FOR SYSTEM_TIME AS OF a PROCTIME() column) are not supported yet")
		}
		return nil, sql.Errorf(sql.ErrInvalid, at, "FOR SYSTEM_TIME AS OF takes the left side's time attribute; %s is not one (Flink: Temporal table join currently only supports 'FOR SYSTEM_TIME AS OF' left table's time attribute field)", v.period.Name)
	}
	switch {
	case cfg.Kind != joinop.Inner && cfg.Kind != joinop.LeftOuter:
		return nil, sql.Errorf(sql.ErrUnsupported, jpl.At, "a temporal join is an INNER or a LEFT join, as in Flink")
	case r.timeAttr < 0:
		return nil, sql.Errorf(sql.ErrInvalid, at, "an event-time temporal join needs a rowtime in the versioned table %s: declare its WATERMARK (Flink: Event-Time Temporal Table Join requires both primary key and row time attribute in versioned table)", v.name)
	case v.primaryKey == nil:
		return nil, sql.Errorf(sql.ErrInvalid, at, "an event-time temporal join needs a PRIMARY KEY in the versioned table %s: declare PRIMARY KEY (...) NOT ENFORCED (Flink: Temporal Table Join requires primary key in versioned table)", v.name)
	}
	lData, rData := joinop.DataColumns(cfg.Left), joinop.DataColumns(cfg.Right)
	var lk, rk []int
	var keys []string
	for _, pk := range v.primaryKey {
		found := -1
		for i, k := range cfg.RightKeys {
			if strings.EqualFold(cfg.Right.Field(k).Name, pk) {
				found = i
			}
		}
		if found < 0 {
			return nil, sql.Errorf(sql.ErrInvalid, jpl.At, "a temporal join's ON must equate the primary key of %s: %s is not in it (Flink: Temporal table's primary key must be included in the equivalence condition of the temporal join)", v.name, pk)
		}
		lk, rk = append(lk, cfg.LeftKeys[found]), append(rk, cfg.RightKeys[found])
		keys = append(keys, jpl.Keys[found])
	}
	// the other equalities are conditions on the version found
	for i, k := range cfg.RightKeys {
		if indexOf(rk, k) >= 0 {
			continue
		}
		li, ri := indexOf(lData, cfg.LeftKeys[i]), indexOf(rData, k)
		rest = append(rest, &sql.Binary{At: jpl.At, Op: "=",
			L: &sql.ColumnRef{At: jpl.At, Table: l.cols[li].table, Name: l.cols[li].name},
			R: &sql.ColumnRef{At: jpl.At, Table: r.cols[ri].table, Name: r.cols[ri].name}})
	}
	cfg.LeftKeys, cfg.RightKeys, jpl.Keys = lk, rk, keys
	cfg.Temporal = &joinop.Temporal{LeftTime: l.dataIndex(l.timeAttr), RightTime: r.dataIndex(r.timeAttr)}
	jpl.Versioned = v.name + " AS OF " + qualified(l.cols[l.timeAttr]) + ", versions by " + strings.Join(v.primaryKey, ", ") + " and " + r.cols[r.timeAttr].name
	return rest, nil
}
