package main

import (
	"fmt"
	"io"

	"github.com/wsql/wsql"
)

// printSummary writes a query's summary on stderr (summaryText).
func printSummary(w io.Writer, s wsql.Summary) {
	fmt.Fprint(w, summaryText(s))
}

// summaryText is a query's summary line, then the warning about the rows
// it lost, if they are many (wsql.Summary.Warning).
func summaryText(s wsql.Summary) string {
	text := fmt.Sprintf("wsql: %s\n", s)
	if warn := s.Warning(); warn != "" {
		text += warn + "\n"
	}
	return text
}
