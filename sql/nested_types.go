package sql

import "strings"

// Flink's nested types, in every form its docs list ("Data Types"):
//
//	ROW<n0 t0, n1 t1 'description', ...>   ROW(n0 t0, ...)
//	ARRAY<t>   t ARRAY
//	MULTISET<t>   t MULTISET
//	MAP<kt, vt>
//
// An element, a key, a value or a field may be declared NOT NULL (or NULL),
// field names may be back-quoted, and nesting goes to any depth.

// parseType reads a type starting at toks[i] and returns it with the index
// of the first token after it: a nested type, or a scalar one
// (parseScalarType), followed by any number of ARRAY and MULTISET suffixes.
func parseType(toks []token, i int) (TypeName, int, *Error) {
	var (
		tn  TypeName
		j   int
		err *Error
	)
	if i < len(toks) && toks[i].kind == tokIdent && isNestedTypeWord(toks[i].text) {
		tn, j, err = parseNestedType(toks, i)
	} else {
		tn, j, err = parseScalarType(toks, i)
	}
	if err != nil {
		return TypeName{}, i, err
	}
	for j < len(toks) && (toks[j].is("ARRAY") || toks[j].is("MULTISET")) {
		elem := tn
		tn = TypeName{Name: strings.ToUpper(toks[j].text), Precision: -1, Scale: -1, At: tn.At, Elem: &elem}
		j++
	}
	return tn, j, nil
}

func isNestedTypeWord(w string) bool {
	switch strings.ToUpper(w) {
	case "ROW", "ARRAY", "MAP", "MULTISET":
		return true
	}
	return false
}

// IsNested reports whether t is a ROW, ARRAY, MAP or MULTISET.
func (t TypeName) IsNested() bool { return t.Elem != nil || t.Key != nil || t.Fields != nil }

// parseNestedType reads ROW<...>, ROW(...), ARRAY<t>, MULTISET<t> or
// MAP<kt, vt> at toks[i].
func parseNestedType(toks []token, i int) (TypeName, int, *Error) {
	name := strings.ToUpper(toks[i].text)
	tn := TypeName{Name: name, Precision: -1, Scale: -1, At: toks[i].pos}
	j := i + 1
	open, closer := "<", ">"
	if name == "ROW" && j < len(toks) && toks[j].isOp("(") {
		open, closer = "(", ")"
	}
	if j >= len(toks) || !toks[j].isOp(open) {
		form := map[string]string{"ROW": "ROW<name type, ...>", "ARRAY": "ARRAY<type>", "MULTISET": "MULTISET<type>", "MAP": "MAP<key type, value type>"}[name]
		return TypeName{}, i, Errorf(ErrSyntax, tokPos(toks, j), "expected %s after %s, as in %s", open, name, form)
	}
	j++
	var err *Error
	switch name {
	case "ARRAY", "MULTISET":
		var elem TypeName
		if elem, j, err = parseElementType(toks, j); err != nil {
			return TypeName{}, i, err
		}
		tn.Elem = &elem
	case "MAP":
		var key, value TypeName
		if key, j, err = parseElementType(toks, j); err != nil {
			return TypeName{}, i, err
		}
		if j >= len(toks) || !toks[j].isOp(",") {
			return TypeName{}, i, Errorf(ErrSyntax, tokPos(toks, j), "expected , and the value type of MAP<key type, value type>")
		}
		if value, j, err = parseElementType(toks, j+1); err != nil {
			return TypeName{}, i, err
		}
		tn.Key, tn.Elem = &key, &value
	case "ROW":
		if tn.Fields, j, err = parseRowFields(toks, j, closer); err != nil {
			return TypeName{}, i, err
		}
		return tn, j, nil
	}
	if j >= len(toks) || !toks[j].isOp(closer) {
		return TypeName{}, i, Errorf(ErrSyntax, tokPos(toks, j), "expected %s to close %s", closer, name)
	}
	return tn, j + 1, nil
}

// parseRowFields reads `name type [NOT NULL] ['description'], ...` up to
// and past the closer; ROW<> and ROW() have no fields, as in Flink.
func parseRowFields(toks []token, j int, closer string) ([]TypeField, int, *Error) {
	fields := []TypeField{}
	seen := map[string]bool{}
	for {
		if j < len(toks) && toks[j].isOp(closer) && len(fields) == 0 {
			return fields, j + 1, nil
		}
		if j >= len(toks) || !toks[j].isName() {
			return nil, j, Errorf(ErrSyntax, tokPos(toks, j), "expected a field name in ROW, as in ROW<id INT, name STRING>")
		}
		f := TypeField{Name: toks[j].value()}
		if seen[strings.ToLower(f.Name)] {
			return nil, j, Errorf(ErrInvalid, toks[j].pos, "field %s appears twice in ROW", f.Name)
		}
		seen[strings.ToLower(f.Name)] = true
		var err *Error
		if f.Type, j, err = parseElementType(toks, j+1); err != nil {
			return nil, j, err
		}
		if j < len(toks) && toks[j].kind == tokString {
			f.Description = toks[j].value()
			j++
		}
		fields = append(fields, f)
		switch {
		case j < len(toks) && toks[j].isOp(","):
			j++
		case j < len(toks) && toks[j].isOp(closer):
			return fields, j + 1, nil
		default:
			return nil, j, Errorf(ErrSyntax, tokPos(toks, j), "expected , or %s after a field of ROW", closer)
		}
	}
}

// parseElementType reads a type inside a nested one, with its NOT NULL.
func parseElementType(toks []token, j int) (TypeName, int, *Error) {
	tn, j, err := parseType(toks, j)
	if err != nil {
		return TypeName{}, j, err
	}
	switch {
	case wordsAt(toks, j, "NOT", "NULL"):
		tn.NotNull = true
		j += 2
	case j < len(toks) && toks[j].is("NULL"):
		j++
	}
	return tn, j, nil
}
