package avro

import (
	"fmt"

	avrolib "github.com/twmb/avro"
)

// skipStep reads a value of a writer's field the table lacks and drops it.
type skipStep struct {
	kind  byte // 'l' long (int, long, enum), 'b' boolean, 'f' a fixed size, 'y' bytes (string), 'r' record, 'a' array, 'm' map, 'u' union, 'n' null
	size  int
	items []step // a record's fields, an array's item, a map's value, a union's branches
}

func (s *skipStep) null(*reader) {}

func (s *skipStep) read(r *reader) {
	switch s.kind {
	case 'l':
		r.long()
	case 'b':
		r.boolean()
	case 'f':
		r.fixed(s.size)
	case 'y':
		r.bytes()
	case 'r':
		for _, f := range s.items {
			f.read(r)
		}
	case 'a', 'm':
		for n := r.blockCount(); n > 0 && !r.failed(); n = r.blockCount() {
			for range n {
				if s.kind == 'm' {
					r.bytes()
				}
				s.items[0].read(r)
				if r.failed() {
					return
				}
			}
		}
	case 'u':
		at := r.i
		k := r.long()
		if r.failed() {
			return
		}
		if k < 0 || k >= int64(len(s.items)) {
			r.fail(at, "union branch %d of %d", k, len(s.items))
			return
		}
		s.items[k].read(r)
	}
}

// compileSkip is the skip of a value of the writer's type w.
func compileSkip(w *avrolib.SchemaNode) (step, error) {
	s := &skipStep{}
	switch w.Type {
	case "null":
		s.kind = 'n'
	case "boolean":
		s.kind = 'b'
	case "int", "long", "enum":
		s.kind = 'l'
	case "float":
		s.kind, s.size = 'f', 4
	case "double":
		s.kind, s.size = 'f', 8
	case "fixed":
		s.kind, s.size = 'f', w.Size
	case "string", "bytes":
		s.kind = 'y'
	case "record", "error":
		s.kind = 'r'
		for k := range w.Fields {
			f, err := compileSkip(&w.Fields[k].Type)
			if err != nil {
				return nil, err
			}
			s.items = append(s.items, f)
		}
	case "array", "map":
		s.kind = w.Type[0]
		of := w.Items
		if w.Type == "map" {
			of = w.Values
		}
		if of == nil {
			return nil, fmt.Errorf("the writer's %s has no item type", w.Type)
		}
		item, err := compileSkip(of)
		if err != nil {
			return nil, err
		}
		s.items = []step{item}
	case "union":
		s.kind = 'u'
		for k := range w.Branches {
			b, err := compileSkip(&w.Branches[k])
			if err != nil {
				return nil, err
			}
			s.items = append(s.items, b)
		}
	default:
		return nil, fmt.Errorf("the writer's schema refers to type %s, which wsql cannot read (a recursive type?)", w.Type)
	}
	return s, nil
}
