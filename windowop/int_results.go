package windowop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// int64Results is the BIGINT column (never NULL) of vals at picks, the
// values gathered straight into the column's buffer: through the builder
// they were gathered into a scratch slice, then copied again into a
// buffer the builder had zeroed as it grew. Nexmark q16 emits twelve
// COUNTs per result row.
func int64Results(mem memory.Allocator, dt arrow.DataType, picks []int32, vals []int64) arrow.Array {
	buf := memory.NewResizableBuffer(mem)
	defer buf.Release()
	buf.Resize(arrow.Int64Traits.BytesRequired(len(picks)))
	out := arrow.Int64Traits.CastFromBytes(buf.Bytes())
	for k, p := range picks {
		out[k] = vals[p]
	}
	d := array.NewData(dt, len(picks), []*memory.Buffer{nil, buf}, nil, 0, 0)
	defer d.Release()
	return array.MakeFromData(d)
}
