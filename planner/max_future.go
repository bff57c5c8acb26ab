package planner

import (
	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/sql"
)

// optMaxFuture bounds how far beyond its split's latest event time a row
// may lie and still move the watermark (exec.MaxFuture); rows further out
// are bad rows.
const optMaxFuture = "scan.watermark.max-future"

// maxFutureOption reads 'scan.watermark.max-future' of a table: nil when
// it is not set. It needs event time that rows drive: a WATERMARK other
// than SOURCE_WATERMARK().
func maxFutureOption(t *catalog.Table) (*exec.MaxFuture, error) {
	o, ok := t.Options.Lookup(optMaxFuture)
	if !ok {
		return nil, nil
	}
	d, err := durationOption(o)
	if err != nil {
		return nil, err
	}
	if d <= 0 || d%1e6 != 0 {
		return nil, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be a positive duration in whole milliseconds like '1 h' or '10 min', got '%s'", o.Key, o.Value)
	}
	switch {
	case t.Watermark == nil:
		return nil, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' needs event time, but table %s declares no WATERMARK", o.Key, t.Name)
	case t.Watermark.Source:
		return nil, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' bounds the rows that move the watermark, but table %s takes its watermark from the source (SOURCE_WATERMARK())", o.Key, t.Name)
	}
	return &exec.MaxFuture{Bound: d, Table: t.Name, Column: t.Watermark.Column}, nil
}

// maxFutureText shows 'scan.watermark.max-future' when it is set.
func (p *Plan) maxFutureText() string {
	if p.Source == nil || p.Source.Spec().MaxFuture == nil {
		return ""
	}
	return ", max-future=[" + durationText(p.Source.Spec().MaxFuture.Bound) + "]"
}
