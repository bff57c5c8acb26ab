package sql

import "strings"

// Flink's statement sets: several INSERTs run as one job.
//
//	EXECUTE STATEMENT SET BEGIN insert; [insert; ...] END
//	EXPLAIN [PLAN FOR] [EXECUTE] STATEMENT SET BEGIN insert; ... END
//	BEGIN STATEMENT SET          (the SQL client's form: the INSERTs
//	insert; ...                   after it are kept by the session
//	END                           until END runs them)
//
// The EXECUTE and EXPLAIN forms span several ';', so Parse gathers their
// parts (groupStatementSet) before each INSERT is read as any other.

// StatementSet is EXECUTE STATEMENT SET BEGIN ... END.
type StatementSet struct {
	At      Pos
	Inserts []*Insert
	End     Pos // the END
}

// BeginStatementSet is the SQL client's BEGIN STATEMENT SET.
type BeginStatementSet struct{ At Pos }

// EndStatementSet is the SQL client's END of a statement set.
type EndStatementSet struct{ At Pos }

func (s *StatementSet) Pos() Pos      { return s.At }
func (s *BeginStatementSet) Pos() Pos { return s.At }
func (s *EndStatementSet) Pos() Pos   { return s.At }
func (*StatementSet) statement()      {}
func (*BeginStatementSet) statement() {}
func (*EndStatementSet) statement()   {}

// onlyInserts is the message of a statement other than INSERT inside a
// statement set, as Flink's.
const onlyInserts = "only INSERT statements are allowed in a statement set"

// OnlyInsertsError is the error for st, read from src, inside a
// statement set.
func OnlyInsertsError(src string, st Statement) *Error {
	at := st.Pos()
	word := strings.FieldsFunc(src[min(at.Offset, len(src)):], func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z')
	})
	if len(word) == 0 {
		return Errorf(ErrInvalid, at, "%s", onlyInserts)
	}
	return Errorf(ErrInvalid, at, "%s, found %s", onlyInserts, strings.ToUpper(word[0]))
}

// setHead returns how many tokens open a statement set of the EXECUTE or
// EXPLAIN form at the start of toks (up to and with BEGIN's place: the
// words before BEGIN), whether it is EXPLAIN, and 0 when toks is no such
// statement.
func setHead(toks []token) (n int, explain bool) {
	i := 0
	if wordsAt(toks, 0, "EXPLAIN") {
		explain, i = true, 1
		if wordsAt(toks, i, "PLAN", "FOR") {
			i += 2
		}
		if wordsAt(toks, i, "EXECUTE") {
			i++
		}
	} else if wordsAt(toks, 0, "EXECUTE") {
		i = 1
	} else {
		return 0, false
	}
	if !wordsAt(toks, i, "STATEMENT", "SET") {
		return 0, false
	}
	return i + 2, explain
}

// groupStatementSet reads the statement set that starts parts[0] (see
// setHead): its INSERTs up to the part that is END. It returns the
// statement and how many parts it took.
func groupStatementSet(s *source, parts [][]token) (Statement, int, *Error) {
	head := parts[0]
	n, explain := setHead(head)
	if !wordsAt(head, n, "BEGIN") {
		p := &reader{src: s, toks: head, i: n}
		return nil, 1, p.expected("BEGIN after STATEMENT SET")
	}
	set := &StatementSet{At: head[0].pos}
	first := head[n+1:]
	if explain {
		set.At = head[n-2].pos
	}
	used := 1
	for k := 0; ; k++ {
		var toks []token
		switch {
		case k == 0:
			toks = first
		case k < len(parts):
			toks, used = parts[k], k+1
		default:
			return nil, len(parts), Errorf(ErrSyntax, endPos(parts[len(parts)-1]), "expected END; to close the statement set begun at %s", set.At)
		}
		if len(toks) == 0 {
			continue
		}
		if len(toks) == 1 && toks[0].is("END") {
			set.End = toks[0].pos
			break
		}
		if !toks[0].is("INSERT") {
			return nil, used, Errorf(ErrInvalid, toks[0].pos, "%s, found %s", onlyInserts, strings.ToUpper(toks[0].text))
		}
		st, err := parseWithHints(s, toks)
		if err != nil {
			return nil, used, err
		}
		set.Inserts = append(set.Inserts, st.(*Insert))
	}
	if len(set.Inserts) == 0 {
		return nil, used, Errorf(ErrSyntax, set.End, "expected an INSERT statement in the statement set, found END")
	}
	if explain {
		return &Explain{At: head[0].pos, Stmt: set}, used, nil
	}
	return set, used, nil
}

// parseClientSet reads BEGIN STATEMENT SET and END, the SQL client's
// statements around a statement set; nil when toks is neither.
func parseClientSet(s *source, toks []token) (Statement, *Error) {
	p := &reader{src: s, toks: toks, i: 1}
	switch {
	case toks[0].is("BEGIN") && wordsAt(toks, 1, "STATEMENT", "SET"):
		p.i = 3
		if err := p.done(); err != nil {
			return nil, err
		}
		return &BeginStatementSet{At: toks[0].pos}, nil
	case toks[0].is("END"):
		if err := p.done(); err != nil {
			return nil, err
		}
		return &EndStatementSet{At: toks[0].pos}, nil
	}
	return nil, nil
}
