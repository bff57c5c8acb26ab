package format

// AppendCSVField quotes a non-NULL value when it needs it; the empty string
// is quoted too, since an empty field means NULL.
func AppendCSVField(dst, v []byte) []byte {
	need := len(v) == 0
	for _, b := range v {
		if b == ',' || b == '"' || b == '\n' || b == '\r' {
			need = true
			break
		}
	}
	if !need {
		return append(dst, v...)
	}
	dst = append(dst, '"')
	for _, b := range v {
		if b == '"' {
			dst = append(dst, '"')
		}
		dst = append(dst, b)
	}
	return append(dst, '"')
}
