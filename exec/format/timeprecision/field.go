package timeprecision

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// Key is the field metadata key that holds the precision.
const Key = "wsql.precision"

// UnitDigits is how many fraction digits a unit holds.
func UnitDigits(u arrow.TimeUnit) int {
	return [...]int{arrow.Second: 0, arrow.Millisecond: 3, arrow.Microsecond: 6, arrow.Nanosecond: 9}[u]
}

// Between reports whether precision p of a value of type dt lies between
// Arrow's units, so that dt alone does not tell it.
func Between(dt arrow.DataType, p int) bool {
	switch t := dt.(type) {
	case *arrow.TimestampType:
		return p >= 0 && p < UnitDigits(t.Unit)
	case *arrow.Time32Type:
		return p >= 0 && p < UnitDigits(t.Unit)
	}
	return false
}

// Of is the precision f carries, -1 when it carries none.
func Of(f arrow.Field) int {
	i := f.Metadata.FindKey(Key)
	if i < 0 || !Between(f.Type, 0) {
		return -1
	}
	p, err := strconv.Atoi(f.Metadata.Values()[i])
	if err != nil {
		return -1
	}
	return p
}

// With is f carrying precision p, or f without one when p is the
// precision of f's unit (or -1).
func With(f arrow.Field, p int) arrow.Field {
	keys, values := f.Metadata.Keys(), f.Metadata.Values()
	var k, v []string
	for i := range keys {
		if keys[i] != Key {
			k, v = append(k, keys[i]), append(v, values[i])
		}
	}
	if Between(f.Type, p) {
		k, v = append(k, Key), append(v, strconv.Itoa(p))
	}
	f.Metadata = arrow.NewMetadata(k, v)
	return f
}

// Name is the SQL type name of a field of type dt with precision p
// (from Of): TIMESTAMP(2) rather than name, the name of dt's unit.
func Name(name string, dt arrow.DataType, p int) string {
	if !Between(dt, p) {
		return name
	}
	if open := strings.LastIndexByte(name, '('); open > 0 && strings.HasSuffix(name, ")") {
		return name[:open+1] + strconv.Itoa(p) + ")"
	}
	return name
}
