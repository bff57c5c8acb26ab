package function

// init adds the family at its place in the registry.
func init() { addFamily(600, windowFunctions) }

// windowFunctions are the group windows of GROUP BY and their properties.
// The sql package reads them as forms of their own, and GROUP BY
// (planner/group_by.go, planner/window.go) plans them.
var windowFunctions = []Function{
	window("TUMBLE", "fixed-size windows that do not overlap; also a window table function", tumbleParams),
	window("HOP", "fixed-size windows that start every slide; also a window table function", hopParams),
	window("CUMULATE", "windows that grow by step up to size from a common start; also a window table function", cumulateParams),
	window("SESSION", "a key's rows closer than gap to each other (a wsql extension: a gap per row)", sessionParams),
	window("COUNT_WINDOW", "every n rows of a key, in arrival order, or the last n every slide rows (a wsql extension)",
		[]Param{{Name: "n", Type: argRowCount}, {Name: "slide", Type: argRowCount, Optional: true}}),
	windowProperty("TUMBLE", "START", tumbleParams), windowProperty("TUMBLE", "END", tumbleParams), windowProperty("TUMBLE", "ROWTIME", tumbleParams),
	windowProperty("HOP", "START", hopParams), windowProperty("HOP", "END", hopParams), windowProperty("HOP", "ROWTIME", hopParams),
	windowProperty("SESSION", "START", sessionParams), windowProperty("SESSION", "END", sessionParams), windowProperty("SESSION", "ROWTIME", sessionParams),
	windowProperty("CUMULATE", "START", cumulateParams), windowProperty("CUMULATE", "END", cumulateParams), windowProperty("CUMULATE", "ROWTIME", cumulateParams),
}

// The arguments of the windows.
var (
	argTimeAttribute = ArgType{Name: "time attribute", Sample: "ts"}
	argInterval      = ArgType{Name: "INTERVAL", Sample: "INTERVAL '1' MINUTE"}
	argSize          = ArgType{Name: "INTERVAL", Sample: "INTERVAL '2' MINUTE"}
	argOffset        = ArgType{Name: "INTERVAL", Sample: "INTERVAL '10' SECOND"}
	argRowCount      = ArgType{Name: "INTEGER constant", Sample: "2"}

	tumbleParams   = []Param{{Name: "time", Type: argTimeAttribute}, {Name: "size", Type: argSize}, {Name: "offset", Type: argOffset, Optional: true}}
	hopParams      = []Param{{Name: "time", Type: argTimeAttribute}, {Name: "slide", Type: argInterval}, {Name: "size", Type: argSize}, {Name: "offset", Type: argOffset, Optional: true}}
	cumulateParams = []Param{{Name: "time", Type: argTimeAttribute}, {Name: "step", Type: argInterval}, {Name: "size", Type: argSize}, {Name: "offset", Type: argOffset, Optional: true}}
	sessionParams  = []Param{{Name: "time", Type: argTimeAttribute}, {Name: "gap", Type: argInterval}}
)

func window(name, description string, params []Param) Function {
	return Function{Name: name, Kind: WindowFunction, Syntax: SyntaxGroupBy, Description: description,
		Signatures: []Signature{{Params: params, Result: "a window"}}}
}

// windowProperty is window_PROP, written with the window's arguments.
func windowProperty(window, prop string, params []Param) Function {
	p := windowProperties[prop]
	return Function{Name: window + "_" + prop, Kind: WindowPropertyFunction, Syntax: SyntaxGroupBy, Description: p.description + " of " + window,
		Signatures: []Signature{{Params: params, Result: p.result}}}
}

var windowProperties = map[string]struct{ description, result string }{
	"START":   {"the start", "TIMESTAMP(3)"},
	"END":     {"the end", "TIMESTAMP(3)"},
	"ROWTIME": {"the last millisecond (end - 1 ms), a time attribute,", "TIMESTAMP(3) rowtime"},
}
