package formats

import "github.com/wsql/wsql/exec/connector"

// Parquet is the 'parquet' format, written by the filesystem sink only.
const Parquet = "parquet"

func init() {
	connector.RegisterFormat(&connector.Format{Name: Parquet, Rank: 30, Writes: true, Options: []connector.Option{
		// Flink hands 'parquet.*' keys to parquet-mr; wsql knows the codec one.
		{Key: "parquet.compression", Type: "string", Default: "SNAPPY", Scope: connector.Sink, Description: "the compression codec"},
	}})
}
