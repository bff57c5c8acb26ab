package jdbc

import "github.com/wsql/wsql/exec/connector"

var _ connector.RunChecker = (*tableSink)(nil)

// CheckRun checks the PostgreSQL table written when the INSERT is planned
// to run: it exists and has each column of the table, of a type the
// column is written to; an error is at the column's declaration (or the
// 'table-name' option). The sink checks again when it opens, in case
// the table changed since.
func (s *tableSink) CheckRun() error {
	return checkPGTable(s.table, s.cfg, s.phys, writing)
}
