package planner

import (
	"fmt"
	"sort"
	"strings"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
)

// Identity identifies the query for its checkpoints: everything that
// decides which rows it reads and what it makes of them, so that a
// checkpoint never resumes a query whose meaning changed. It is the plan
// as EXPLAIN shows it, with every file source as one split (the files of
// a directory come and go between runs; a restored read checks the files
// it was reading itself), followed by what EXPLAIN leaves out: the session
// time zone, each table's columns, watermark and every WITH option (the
// format's options such as 'csv.field-delimiter' among them) of the
// tables read and written, and the source settings resolved from them.
func (p *Plan) Identity() string {
	var b strings.Builder
	b.WriteString(p.withoutListedSplits().Explain())
	p.writeIdentity(&b)
	return b.String()
}

// writeIdentity writes what Identity adds to EXPLAIN, for p and the plans
// it reads.
func (p *Plan) writeIdentity(b *strings.Builder) {
	zone := "UTC"
	if p.Location != nil {
		zone = p.Location.String()
	}
	fmt.Fprintf(b, "time zone: %s\n", zone)
	if p.Sink != nil {
		writeTableIdentity(b, "sink", p.Sink.Table)
	}
	if p.Table != nil {
		writeTableIdentity(b, "source", p.Table)
	}
	if src := p.Source; src != nil {
		writeSourceIdentity(b, src)
	}
	if p.Input != nil {
		b.WriteString("reads:\n")
		p.Input.writeIdentity(b)
	}
	for i, q := range p.Union {
		fmt.Fprintf(b, "union query %d reads:\n", i+1)
		q.writeIdentity(b)
	}
}

// writeTableIdentity writes a table's declaration: columns, watermark and
// options, sorted by key (their order does not matter).
func writeTableIdentity(b *strings.Builder, role string, t *catalog.Table) {
	fmt.Fprintf(b, "%s table %q:", role, t.Name)
	for _, c := range t.Columns {
		fmt.Fprintf(b, " %q %s", c.Name, c.SQLType)
		if c.NotNull {
			b.WriteString(" NOT NULL")
		}
		if c.Proctime {
			b.WriteString(" PROCTIME")
		}
		if c.Computed != nil {
			fmt.Fprintf(b, " AS %s", exprString(c.Computed))
		}
		b.WriteString(",")
	}
	b.WriteString("\n")
	if w := t.Watermark; w != nil {
		fmt.Fprintf(b, "  watermark for %q", w.Column)
		switch {
		case w.Source:
			b.WriteString(" as SOURCE_WATERMARK()")
		case w.Expr != nil:
			fmt.Fprintf(b, " as %s", exprString(w.Expr))
		}
		if w.Bounded {
			fmt.Fprintf(b, " (bounded by %d ms)", w.DelayMillis)
		}
		b.WriteString("\n")
	}
	opts := make([]string, 0, len(t.Options))
	for _, o := range t.Options {
		opts = append(opts, fmt.Sprintf("%q = %q", o.Key, o.Value))
	}
	sort.Strings(opts)
	for _, o := range opts {
		fmt.Fprintf(b, "  option %s\n", o)
	}
}

// writeSourceIdentity writes the source settings that change the rows
// read: the format's options as resolved (defaults included) and where
// skipped rows go.
func writeSourceIdentity(b *strings.Builder, src exec.Source) {
	src.Identity(b)
	b.WriteString("\n")
	if path := src.Spec().BadRowsPath; path != "" {
		fmt.Fprintf(b, "  bad rows to %q\n", path)
	}
}

// withoutListedSplits is a copy of p, and of the plans it reads, whose
// file sources have no split list.
func (p *Plan) withoutListedSplits() *Plan {
	q := *p
	if q.Input != nil {
		q.Input = q.Input.withoutListedSplits()
	}
	if q.Union != nil {
		q.Union = make([]*Plan, len(p.Union))
		for i, b := range p.Union {
			q.Union[i] = b.withoutListedSplits()
		}
	}
	if l, ok := q.Source.(exec.ListedSource); ok {
		q.Source = l.WithoutListedSplits()
	}
	return &q
}
