package textfn

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/regex"
)

// StringArrayType is ARRAY<STRING> as wsql stores it.
var StringArrayType = arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.BinaryTypes.String, Nullable: true})

// StringMapType is MAP<STRING, STRING> as wsql stores it.
var StringMapType = func() *arrow.MapType {
	m := arrow.MapOf(arrow.BinaryTypes.String, arrow.BinaryTypes.String)
	m.SetItemNullable(true)
	return m
}()

// ExtractAll is REGEXP_EXTRACT_ALL(s, p [, g]): group g (default 1) of
// every match, as ARRAY<STRING> (a group that did not take part is a NULL
// element); NULL when an argument is NULL, p is invalid or g is not one of
// its groups.
type ExtractAll struct {
	S, P, G expr.Expr // G is BIGINT or nil
	cons    *Regex
}

// NewExtractAll builds the kernel, compiling p when it is constant.
func NewExtractAll(s, p, g expr.Expr) *ExtractAll {
	return &ExtractAll{S: s, P: p, G: g, cons: NewRegex(RegexpExtract, s, p, g)}
}

func (e *ExtractAll) DataType() arrow.DataType { return StringArrayType }

func (e *ExtractAll) Children() []expr.Expr {
	if e.G != nil {
		return []expr.Expr{e.S, e.P, e.G}
	}
	return []expr.Expr{e.S, e.P}
}

func (e *ExtractAll) String() string { return argsString("REGEXP_EXTRACT_ALL", e.Children()) }

func (e *ExtractAll) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	b, err := evalBatch(rec, mem, e.Children())
	if err != nil {
		return nil, err
	}
	defer b.release()
	ps := e.cons.patternsOf()
	lb := array.NewListBuilderWithField(mem, StringArrayType.ElemField())
	defer lb.Release()
	vb := lb.ValueBuilder().(*array.StringBuilder)
	for i := range b.n {
		if !b.ok(i) {
			lb.AppendNull()
			continue
		}
		m, ok := ps.matcher(b.strs[1].At(i))
		g := int64(1)
		if e.G != nil {
			g = b.ints(2)[i]
		}
		if !ok || g < 0 || g > int64(m.Groups()) {
			lb.AppendNull()
			continue
		}
		s := b.strs[0].At(i)
		lb.Append(true)
		m.Reset()
		for m.Find(s) {
			if start, end, took := m.Group(int(g)); took {
				vb.Append(s[start:end])
			} else {
				vb.AppendNull()
			}
		}
	}
	return lb.NewArray(), nil
}

// patternsOf is the per-batch pattern cache of a Regex kernel.
func (e *Regex) patternsOf() *patterns {
	ps := &patterns{kind: e.Kind}
	if e.isCons {
		ps.cons, ps.bad = true, e.bad
		if !e.bad {
			ps.m = e.re.NewMatcher()
		}
	}
	return ps
}

// StrToMap is STR_TO_MAP(s [, pairSep, kvSep]): s split into pairs at the
// regular expression pairSep (default ','), each split once at kvSep
// (default '=') into a key and a value (NULL without kvSep), as Java's
// String.split; a later pair of the same key replaces the value. An empty s
// is an empty map. An invalid delimiter stops the query, as in Flink.
type StrToMap struct {
	Args []expr.Expr // s, and both delimiters or none
}

func (e *StrToMap) DataType() arrow.DataType { return StringMapType }
func (e *StrToMap) Children() []expr.Expr    { return e.Args }
func (e *StrToMap) String() string           { return argsString("STR_TO_MAP", e.Args) }
func (e *StrToMap) CanFail() bool            { return true }

func (e *StrToMap) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	b, err := evalBatch(rec, mem, e.Args)
	if err != nil {
		return nil, err
	}
	defer b.release()
	mb := array.NewMapBuilderWithType(mem, StringMapType)
	defer mb.Release()
	kb := mb.KeyBuilder().(*array.StringBuilder)
	ib := mb.ItemBuilder().(*array.StringBuilder)
	pairs, kvs := &splitter{}, &splitter{}
	var keys, values []string
	var valid []bool
	for i := range b.n {
		if !b.ok(i) {
			mb.AppendNull()
			continue
		}
		pairSep, kvSep := ",", "="
		if len(e.Args) == 3 {
			pairSep, kvSep = b.strs[1].At(i), b.strs[2].At(i)
		}
		if err := pairs.use(pairSep); err != nil {
			return nil, err
		}
		if err := kvs.use(kvSep); err != nil {
			return nil, err
		}
		s := b.strs[0].At(i)
		keys, values, valid = keys[:0], values[:0], valid[:0]
		if s != "" {
			for _, pair := range pairs.split(s, 0) {
				kv := kvs.split(pair, 2)
				k, v, ok := pair, "", false
				if len(kv) == 2 {
					k, v, ok = kv[0], kv[1], true
				}
				at := -1
				for j, seen := range keys {
					if seen == k {
						at = j
						break
					}
				}
				if at < 0 {
					keys, values, valid = append(keys, k), append(values, v), append(valid, ok)
				} else {
					values[at], valid[at] = v, ok
				}
			}
		}
		mb.Append(true)
		for j, k := range keys {
			kb.Append(k)
			if valid[j] {
				ib.Append(values[j])
			} else {
				ib.AppendNull()
			}
		}
	}
	return mb.NewArray(), nil
}

// splitter is Java's String.split by a regular expression, its pattern
// compiled when it changes.
type splitter struct {
	pattern string
	m       *regex.Matcher
	primed  bool
	parts   []string
}

func (sp *splitter) use(pattern string) error {
	if sp.primed && pattern == sp.pattern {
		return nil
	}
	re, err := regex.Compile(pattern)
	if err != nil {
		return fmt.Errorf("STR_TO_MAP: the delimiter %q is not a valid regular expression: %v", pattern, err)
	}
	sp.pattern, sp.m, sp.primed = pattern, re.NewMatcher(), true
	return nil
}

// split is Java's Pattern.split(s, limit): limit 0 drops trailing empty
// parts, limit n splits at most n-1 times; a zero-width match at the start
// makes no empty first part.
func (sp *splitter) split(s string, limit int) []string {
	parts := sp.parts[:0]
	m := sp.m
	m.Reset()
	index := 0
	for m.Find(s) {
		if limit > 0 && len(parts) >= limit-1 {
			break
		}
		start, end, _ := m.Group(0)
		if index == 0 && start == 0 && end == 0 {
			continue
		}
		parts = append(parts, s[index:start])
		index = end
	}
	if index == 0 && len(parts) == 0 {
		parts = append(parts, s)
	} else {
		parts = append(parts, s[index:])
	}
	if limit == 0 {
		for len(parts) > 0 && parts[len(parts)-1] == "" {
			parts = parts[:len(parts)-1]
		}
	}
	sp.parts = parts
	return parts
}
