package sql

import "strings"

// CREATE TABLE is read from tokens rather than through TiDB: its Flink
// parts (STRING and TIMESTAMP_LTZ types, WATERMARK FOR, WITH options,
// computed columns without a type) are most of it, and a direct reader can
// say exactly what it expected where. The expressions inside it (watermark,
// computed columns) still go through TiDB, via parseExprTokens.
//
//	CREATE [TEMPORARY] TABLE [IF NOT EXISTS] name [(
//	    name type [NOT NULL | NULL] [[CONSTRAINT c] PRIMARY KEY NOT ENFORCED] [COMMENT 'text']
//	  | name type METADATA [FROM 'key'] [VIRTUAL] [COMMENT 'text']
//	  | name AS expr [COMMENT 'text']
//	  | WATERMARK FOR name AS expr
//	  | [CONSTRAINT c] PRIMARY KEY (name, ...) NOT ENFORCED
//	  , ...
//	)] [COMMENT 'text'] [PARTITIONED BY (name, ...)] [WITH ('key' = 'value', ...)]
//	  [LIKE source [(INCLUDING | EXCLUDING | OVERWRITING feature, ...)] | AS query]

// isCreateTable reports whether a statement is CREATE [TEMPORARY] TABLE.
func isCreateTable(toks []token) bool {
	return wordsAt(toks, 0, "CREATE", "TABLE") || wordsAt(toks, 0, "CREATE", "TEMPORARY", "TABLE")
}

func parseCreateTable(src *source, toks []token) (*CreateTable, *Error) {
	p := &reader{src: src, toks: toks}
	ct := &CreateTable{At: toks[0].pos}
	p.i = 2
	if p.peek().is("TEMPORARY") {
		p.i++ // wsql's tables live as long as the session anyway
	}
	if p.peek().is("IF") {
		if !wordsAt(toks, p.i, "IF", "NOT", "EXISTS") {
			return nil, p.expected("IF NOT EXISTS")
		}
		ct.IfNotExists = true
		p.i += 3
	}
	name, err := p.tableName("a table name")
	if err != nil {
		return nil, err
	}
	ct.Name = name
	for paren := p.peek().isOp("("); paren; {
		p.i++ // past "(" or ","
		if err := p.element(ct); err != nil {
			return nil, err
		}
		if p.peek().isOp(")") {
			p.i++
			break
		}
		if !p.peek().isOp(",") {
			return nil, p.expected(`"," or ")" after the column definition`)
		}
	}
	if p.i < len(toks) && !p.peek().is("COMMENT") && !p.peek().is("PARTITIONED") && !p.peek().is("WITH") && !p.peek().is("LIKE") && !p.peek().is("AS") {
		return nil, p.expected(`"(" and the columns, WITH, LIKE or AS`)
	}
	if p.peek().is("COMMENT") {
		p.i++
		s, err := p.str("a quoted comment")
		if err != nil {
			return nil, err
		}
		ct.Comment = s.value()
	}
	if p.peek().is("PARTITIONED") {
		if !wordsAt(toks, p.i, "PARTITIONED", "BY") {
			p.i++
			return nil, p.expected("BY after PARTITIONED")
		}
		p.i += 2
		if ct.PartitionedBy, err = p.nameList("a partition column name"); err != nil {
			return nil, err
		}
	}
	if p.peek().is("WITH") {
		p.i++
		if ct.Options, err = p.options(); err != nil {
			return nil, err
		}
	}
	switch t := p.peek(); {
	case t.is("LIKE"):
		if ct.Like, err = p.like(); err != nil {
			return nil, err
		}
	case t.is("AS"):
		if len(ct.Columns) > 0 || ct.Watermark != nil || ct.PrimaryKey != nil {
			return nil, Errorf(ErrUnsupported, t.pos, "CREATE TABLE ... AS SELECT takes its columns from the query; drop the column list")
		}
		ct.Query, err = parseQuery(src, toks[p.i+1:], endPos(toks))
		return ct, err
	}
	if p.i < len(toks) {
		return nil, p.expected("WITH (...), LIKE, AS or the end of the statement")
	}
	if len(ct.Columns) == 0 && ct.Like == nil {
		return nil, Errorf(ErrInvalid, ct.Name.At, "table %s has no columns", ct.Name.Name)
	}
	return ct, nil
}

// likeFeatures are what LIKE's options merge, with the modes each takes.
var likeFeatures = map[string]string{
	"ALL": "INCLUDING EXCLUDING", "CONSTRAINTS": "INCLUDING EXCLUDING", "PARTITIONS": "INCLUDING EXCLUDING",
	"GENERATED": "INCLUDING EXCLUDING OVERWRITING", "METADATA": "INCLUDING EXCLUDING OVERWRITING",
	"OPTIONS": "INCLUDING EXCLUDING OVERWRITING", "WATERMARKS": "INCLUDING EXCLUDING OVERWRITING",
}

// like reads LIKE source [(mode feature, ...)].
func (p *reader) like() (*TableLike, *Error) {
	l := &TableLike{At: p.peek().pos}
	p.i++
	var err *Error
	if l.Table, err = p.tableName("the name of the table to copy after LIKE"); err != nil {
		return nil, err
	}
	if !p.peek().isOp("(") {
		return l, nil
	}
	p.i++
	for {
		m := p.peek()
		mode := strings.ToUpper(m.text)
		if !m.is("INCLUDING") && !m.is("EXCLUDING") && !m.is("OVERWRITING") {
			return nil, p.expected("INCLUDING, EXCLUDING or OVERWRITING")
		}
		p.i++
		f := p.peek()
		feature := strings.ToUpper(f.text)
		modes, ok := likeFeatures[feature]
		if f.kind != tokIdent || !ok {
			return nil, p.expected("ALL, CONSTRAINTS, GENERATED, METADATA, OPTIONS, PARTITIONS or WATERMARKS")
		}
		if !strings.Contains(modes, mode) {
			// Flink: "Illegal merging strategy 'OVERWRITING' for 'CONSTRAINTS' option."
			return nil, Errorf(ErrInvalid, m.pos, "illegal merging strategy '%s' for '%s' option", mode, feature)
		}
		p.i++
		l.Options = append(l.Options, LikeOption{At: m.pos, Mode: mode, Feature: feature})
		if p.peek().isOp(",") {
			p.i++
			continue
		}
		return l, p.op(")")
	}
}

// element reads one entry of the column list.
func (p *reader) element(ct *CreateTable) *Error {
	t := p.peek()
	switch {
	case wordsAt(p.toks, p.i, "WATERMARK", "FOR"):
		if ct.Watermark != nil {
			return Errorf(ErrInvalid, t.pos, "a table can have only one WATERMARK")
		}
		p.i += 2
		col, err := p.name("the rowtime column after WATERMARK FOR")
		if err != nil {
			return err
		}
		if !p.peek().is("AS") {
			return p.expected("AS and the watermark expression")
		}
		p.i++
		e, err := p.expr(false)
		if err != nil {
			return err
		}
		ct.Watermark = &WatermarkDef{At: t.pos, Column: col, Expr: e}
		return nil
	case wordsAt(p.toks, p.i, "PRIMARY", "KEY"), t.is("CONSTRAINT"):
		return p.primaryKey(ct, nil)
	}
	name, err := p.name("a column name")
	if err != nil {
		return err
	}
	col := ColumnDef{Name: name}
	if p.peek().is("AS") {
		p.i++
		if col.Computed, err = p.expr(true); err != nil {
			return err
		}
	} else {
		if col.Type, p.i, err = parseType(p.toks, p.i); err != nil {
			return err
		}
		switch {
		case wordsAt(p.toks, p.i, "NOT", "NULL"):
			col.NotNull = true
			p.i += 2
		case p.peek().is("NULL"):
			p.i++
		}
		switch t := p.peek(); {
		case t.is("METADATA"):
			p.i++
			col.Metadata = true
			if p.accept("FROM") {
				k, err := p.str("the quoted metadata key after FROM, as in METADATA FROM 'file.path'")
				if err != nil {
					return err
				}
				col.MetadataKey = k.value()
			}
			col.Virtual = p.accept("VIRTUAL")
		case t.is("PRIMARY"), t.is("CONSTRAINT"):
			if err := p.primaryKey(ct, &name); err != nil {
				return err
			}
		}
	}
	if p.peek().is("COMMENT") {
		p.i++
		s, err := p.str("a quoted comment")
		if err != nil {
			return err
		}
		col.Comment = s.value()
	}
	ct.Columns = append(ct.Columns, col)
	return nil
}

// primaryKey reads [CONSTRAINT name] PRIMARY KEY [(cols)] NOT ENFORCED;
// col is the column it follows, which is then the key.
func (p *reader) primaryKey(ct *CreateTable, col *Ident) *Error {
	pk := &PrimaryKey{At: p.peek().pos}
	if p.accept("CONSTRAINT") {
		n, err := p.name("a constraint name")
		if err != nil {
			return err
		}
		pk.Name = n.Name
	}
	if !p.accept("PRIMARY", "KEY") {
		return p.expected("PRIMARY KEY")
	}
	if col != nil {
		pk.Columns = []Ident{*col}
	} else {
		cols, err := p.nameList("a column name")
		if err != nil {
			return err
		}
		pk.Columns = cols
	}
	if !p.accept("NOT", "ENFORCED") {
		return Errorf(ErrUnsupported, tokPos(p.toks, p.i), "Flink doesn't support ENFORCED mode for PRIMARY KEY constraint: Flink does not own the data, so the only mode is NOT ENFORCED; write PRIMARY KEY (...) NOT ENFORCED")
	}
	if ct.PrimaryKey != nil {
		return Errorf(ErrInvalid, pk.At, "duplicate primary key definition: a table has one PRIMARY KEY (the first is at %s)", ct.PrimaryKey.At)
	}
	ct.PrimaryKey = pk
	return nil
}

// expr reads an expression up to the ',' or ')' that ends the element (or
// its COMMENT when computed is set) and parses it through TiDB.
func (p *reader) expr(computed bool) (Expr, *Error) {
	start, depth := p.i, 0
	for ; p.i < len(p.toks); p.i++ {
		t := p.toks[p.i]
		if depth == 0 && (t.isOp(",") || t.isOp(")") || (computed && t.is("COMMENT"))) {
			break
		}
		if t.isOp("(") || t.isOp("[") { // ARRAY[a, b] and m['k'] hold commas too
			depth++
		} else if t.isOp(")") || t.isOp("]") {
			depth--
		}
	}
	if p.i == start {
		return nil, p.expected("an expression")
	}
	return parseExprTokens(p.src, p.toks[start:p.i])
}

// options reads ('key' = 'value', ...) after WITH.
func (p *reader) options() ([]Option, *Error) {
	if err := p.op("("); err != nil {
		return nil, err
	}
	var opts []Option
	seen := map[string]bool{}
	for {
		k, err := p.str("a quoted option key such as 'connector'")
		if err != nil {
			return nil, err
		}
		if err := p.op("="); err != nil {
			return nil, err
		}
		v, err := p.str("a quoted option value")
		if err != nil {
			return nil, err
		}
		if seen[k.value()] {
			return nil, Errorf(ErrInvalid, k.pos, "option %s is set twice", k.text)
		}
		seen[k.value()] = true
		opts = append(opts, Option{Key: k.value(), Value: v.value(), At: k.pos})
		if p.peek().isOp(",") {
			p.i++
			continue
		}
		if err := p.op(")"); err != nil {
			return nil, err
		}
		return opts, nil
	}
}
