// Package gotable is the connector of tables a Go program attaches
// instead of naming a connector: rows it pushes (PushSource), an
// io.Reader in a format, an array.RecordReader, or a callback that
// receives an INSERT's results. Each kind is an Attachment of the
// catalog's table (catalog.Table.Attached); the connector, registered
// with exec/connector as "go", plans them.
package gotable
