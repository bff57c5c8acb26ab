package sql

// (s1, e1) OVERLAPS (s2, e2) is a row-value comparison TiDB lacks: the
// rewriter turns it into __wsql_overlaps(s1, e1, s2, e2), which the
// lifter reads as the call OVERLAPS of four arguments (an INTERVAL end
// becomes its start plus the interval).

// findOverlaps adds the edits of every OVERLAPS in toks.
func findOverlaps(toks []token, edits map[int]tokenEdit) *Error {
	for k := 1; k+1 < len(toks); k++ {
		if !toks[k].is("OVERLAPS") {
			continue
		}
		open := openParen(toks, k-1)
		if open < 0 || !toks[k+1].isOp("(") || open > 0 && isCallName(toks[open-1]) {
			return Errorf(ErrSyntax, toks[k].pos, "OVERLAPS compares two periods, as in (start1, end1) OVERLAPS (start2, end2)")
		}
		if _, taken := edits[open]; taken {
			return Errorf(ErrUnsupported, toks[open].pos, "this period of OVERLAPS is not supported yet; write it as (start, end)")
		}
		edits[open] = tokenEdit{end: open + 1, text: internalPrefix + "overlaps("}
		edits[k-1] = tokenEdit{end: k + 2, text: ","}
	}
	return nil
}

// overlapsArgs makes an INTERVAL end of a period its start plus the
// interval: (t, INTERVAL '1' HOUR) is (t, t + INTERVAL '1' HOUR).
func overlapsArgs(args []Expr) []Expr {
	for i := 1; i < len(args); i += 2 {
		if iv, ok := args[i].(*IntervalLiteral); ok {
			args[i] = &Binary{At: iv.At, Op: "+", L: args[i-1], R: iv}
		}
	}
	return args
}
