package golden

import (
	"flag"

	// datadriven declares -rewrite for the window operator's scripts; the
	// goldens share that one flag instead of declaring another, which
	// would panic in a test binary linking both.
	_ "github.com/cockroachdb/datadriven"
)

// Rewrite reports whether the test run was given -rewrite: goldens are
// written from what the tests produce instead of being compared with it.
func Rewrite() bool {
	f := flag.Lookup("rewrite")
	return f != nil && f.Value.String() == "true"
}
