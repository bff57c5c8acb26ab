package planner

import (
	"strconv"
	"strings"
)

// uniqueName is name, or name0, name1, ... when an earlier output column
// has the name (compared ignoring case, as columns are resolved): Calcite's
// uniquify, so `SELECT a, a` gives columns a and a0 in Flink.
func uniqueName(name string, earlier []string) string {
	taken := func(n string) bool {
		for _, e := range earlier {
			if strings.EqualFold(e, n) {
				return true
			}
		}
		return false
	}
	if !taken(name) {
		return name
	}
	for k := 0; ; k++ {
		if n := name + strconv.Itoa(k); !taken(n) {
			return n
		}
	}
}
