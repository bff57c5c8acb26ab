package main

import (
	"fmt"
	"io"

	"github.com/wsql/wsql"
)

// printSummary writes a query's summary line on stderr, then the warning
// about the rows it lost, if they are many (wsql.Summary.Warning).
func printSummary(w io.Writer, s wsql.Summary) {
	fmt.Fprintf(w, "wsql: %s\n", s)
	if warn := s.Warning(); warn != "" {
		fmt.Fprintln(w, warn)
	}
}
