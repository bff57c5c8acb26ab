package temporal

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// timestampLayout is Flink's default timestamp text, yyyy-MM-dd HH:mm:ss.
const timestampLayout = "2006-01-02 15:04:05"

// ConvertTZ is CONVERT_TZ(S, From, To): the date-time text S
// (yyyy-MM-dd HH:mm:ss) read as a wall clock in zone From and written as
// the wall clock of the same instant in zone To. NULL when an argument is
// NULL or S does not read.
type ConvertTZ struct {
	S, From, To expr.Expr
}

func (e *ConvertTZ) DataType() arrow.DataType { return arrow.BinaryTypes.String }
func (e *ConvertTZ) Children() []expr.Expr    { return []expr.Expr{e.S, e.From, e.To} }
func (e *ConvertTZ) String() string {
	return fmt.Sprintf("CONVERT_TZ(%s, %s, %s)", e.S, e.From, e.To)
}

// CanFail: an unknown zone stops the query.
func (e *ConvertTZ) CanFail() bool { return true }

// zoneCache holds the zones one evaluation has read, so a zone column
// reads each zone's text once per batch (the expression itself is not
// written to: partitions evaluate it at once).
type zoneCache map[string]*time.Location

func (z zoneCache) zone(name string) (*time.Location, error) {
	if loc, ok := z[name]; ok {
		return loc, nil
	}
	loc, err := Zone(name)
	if err != nil {
		return nil, err
	}
	z[name] = loc
	return loc, nil
}

func (e *ConvertTZ) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	var args [3]expr.StringArg
	for k, x := range []expr.Expr{e.S, e.From, e.To} {
		s, arr, err := expr.EvalStringArg(x, rec, mem)
		if err != nil {
			return nil, err
		}
		if arr != nil {
			defer arr.Release()
		}
		args[k] = s
	}
	n := int(rec.NumRows())
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Reserve(n)
	var text []byte
	zones := zoneCache{}
	for i := range n {
		if args[0].IsNull(i) || args[1].IsNull(i) || args[2].IsNull(i) {
			b.AppendNull()
			continue
		}
		from, err := zones.zone(args[1].At(i))
		if err != nil {
			return nil, err
		}
		to, err := zones.zone(args[2].At(i))
		if err != nil {
			return nil, err
		}
		t, err := time.ParseInLocation(timestampLayout, strings.TrimSpace(args[0].At(i)), from)
		if err != nil {
			b.AppendNull()
			continue
		}
		text = t.In(to).AppendFormat(text[:0], timestampLayout)
		b.BinaryBuilder.Append(text)
	}
	return b.NewArray(), nil
}

// javaShortIDs are the three-letter zone names Java's ZoneId.SHORT_IDS
// maps, which Flink's CONVERT_TZ (java.util.TimeZone) accepts.
var javaShortIDs = map[string]string{
	"ACT": "Australia/Darwin", "AET": "Australia/Sydney", "AGT": "America/Argentina/Buenos_Aires",
	"ART": "Africa/Cairo", "AST": "America/Anchorage", "BET": "America/Sao_Paulo",
	"BST": "Asia/Dhaka", "CAT": "Africa/Harare", "CNT": "America/St_Johns", "CST": "America/Chicago",
	"CTT": "Asia/Shanghai", "EAT": "Africa/Addis_Ababa", "ECT": "Europe/Paris",
	"IET": "America/Indiana/Indianapolis", "IST": "Asia/Kolkata", "JST": "Asia/Tokyo",
	"MIT": "Pacific/Apia", "NET": "Asia/Yerevan", "NST": "Pacific/Auckland", "PLT": "Asia/Karachi",
	"PNT": "America/Phoenix", "PRT": "America/Puerto_Rico", "PST": "America/Los_Angeles",
	"SST": "Pacific/Guadalcanal", "VST": "Asia/Ho_Chi_Minh",
	"EST": "-05:00", "MST": "-07:00", "HST": "-10:00",
}

// Zone reads a time zone as Java does: a region name (America/New_York),
// UTC or GMT, a custom ID (GMT-08:00, UTC+8, +05:30) or a three-letter
// short ID (PST).
func Zone(name string) (*time.Location, error) {
	id := name
	if long, ok := javaShortIDs[strings.ToUpper(name)]; ok {
		id = long
	}
	for _, prefix := range []string{"GMT", "UTC", "UT", ""} {
		rest, ok := strings.CutPrefix(strings.ToUpper(id), prefix)
		if !ok || rest == "" && prefix == "" {
			continue
		}
		if rest == "" || rest == "Z" && prefix == "" {
			return time.FixedZone(strings.ToUpper(id), 0), nil
		}
		if off, ok := zoneOffset(rest); ok {
			return time.FixedZone(name, off), nil
		}
	}
	loc, err := time.LoadLocation(id)
	if err != nil || strings.EqualFold(id, "local") {
		return nil, fmt.Errorf("unknown time zone %q; use a name such as 'America/Los_Angeles', an offset such as 'GMT-08:00' or 'UTC'", name)
	}
	return loc, nil
}

// zoneOffset reads +h, +hh, +hh:mm or +hhmm as seconds east of UTC.
func zoneOffset(s string) (int, bool) {
	if len(s) < 2 || (s[0] != '+' && s[0] != '-') {
		return 0, false
	}
	sign := 1
	if s[0] == '-' {
		sign = -1
	}
	hh, mm := s[1:], "0"
	switch {
	case strings.Contains(hh, ":"):
		hh, mm, _ = strings.Cut(hh, ":")
	case len(hh) == 4:
		hh, mm = hh[:2], hh[2:]
	}
	h, err1 := strconv.Atoi(hh)
	m, err2 := strconv.Atoi(mm)
	if err1 != nil || err2 != nil || len(hh) > 2 || (mm != "0" && len(mm) != 2) || h > 18 || m > 59 {
		return 0, false
	}
	return sign * (h*3600 + m*60), true
}
