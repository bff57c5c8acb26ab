package textsource

import (
	"github.com/apache/arrow-go/v18/arrow"
)

var tsType = &arrow.TimestampType{Unit: arrow.Millisecond}

// csvSchema builds a schema of nullable fields from name, type pairs.
func csvSchema(fields ...any) *arrow.Schema {
	var fs []arrow.Field
	for i := 0; i < len(fields); i += 2 {
		fs = append(fs, arrow.Field{Name: fields[i].(string), Type: fields[i+1].(arrow.DataType), Nullable: true})
	}
	return arrow.NewSchema(fs, nil)
}
