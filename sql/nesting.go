package sql

// MaxNesting bounds how deeply expressions and parentheses nest. Every
// stage after the parser (lifting, type checking, folding, evaluation,
// printing) walks expressions recursively, so an unbounded depth costs
// stack and superlinear time; a limit with a positioned error keeps a
// hostile or generated query from taking the process down. Flink has no
// such limit, but a query a person writes never comes near it.
const MaxNesting = 1000

// nestingError is the error at the construct that passes MaxNesting.
func nestingError(at Pos, what string) *Error {
	return Errorf(ErrUnsupported, at, "%s nested more than %d levels deep; wsql reads at most %d: split the expression, for example into a view or a subquery in FROM", what, MaxNesting, MaxNesting)
}

// checkParens refuses a statement whose parentheses nest deeper than
// MaxNesting, before TiDB builds (and walks) a tree that deep.
func checkParens(toks []token) *Error {
	depth := 0
	for _, t := range toks {
		switch {
		case t.isOp("("):
			if depth++; depth > MaxNesting {
				return nestingError(t.pos, "parentheses")
			}
		case t.isOp(")"):
			depth--
		}
	}
	return nil
}

// enter counts one more level of expression nesting in the lifter; leave
// undoes it. Chains without parentheses (a + 1 + 1 ..., NOT NOT ...) nest
// as deeply as they are long.
func (l *lifter) enter(at Pos) *Error {
	if l.depth++; l.depth > MaxNesting {
		return nestingError(at, "expressions")
	}
	return nil
}

func (l *lifter) leave() { l.depth-- }
