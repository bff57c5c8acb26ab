package formats

import (
	"strings"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/sql"
)

// Parquet is the 'parquet' format, written by the filesystem sink only.
const Parquet = "parquet"

func init() {
	connector.RegisterFormat(&connector.Format{Name: Parquet, Rank: 30, Writes: true, Options: []connector.Option{
		// Flink hands 'parquet.*' keys to parquet-mr; wsql knows the codec one.
		{Key: "parquet.compression", Type: "string", Default: "SNAPPY", Scope: connector.Sink, Description: "the compression codec"},
	}, Writing: parquetWriting})
}

// parquetWriting reads 'parquet.compression', one of Parquet's codec names.
func parquetWriting(t *catalog.Table) (writer.Writing, error) {
	if _, err := Read(t); err != nil { // 'scan.watermark.idle-timeout'
		return nil, err
	}
	codec, _ := t.Options.Lookup("parquet.compression")
	c, ok := writer.ParquetCompression(codec.Value)
	if !ok {
		return nil, sql.Errorf(sql.ErrInvalid, codec.At, "option 'parquet.compression' must be one of %s, got '%s'",
			strings.Join(writer.ParquetCompressions, ", "), codec.Value)
	}
	return writer.ParquetWriting{Codec: c}, nil
}
