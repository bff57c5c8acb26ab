// Package writer presents query results: the result writers (CSV, JSON
// lines, an aligned table, an Arrow IPC stream, Parquet), the state the text
// writers keep in a checkpoint so a restored run continues their output,
// and the Writing a file sink makes its writer with.
//
// Values are written in the text of exec/format, the text the decoders
// read back, so a result written as CSV or JSON reads back as it was.
package writer
