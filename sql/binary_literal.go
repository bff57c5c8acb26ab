package sql

import "strings"

// isBinaryLiteral reports X'0A0B' at toks[i]: the letter X right before a
// string, with nothing between them.
func isBinaryLiteral(toks []token, i int) bool {
	return i+1 < len(toks) && toks[i].kind == tokIdent && strings.EqualFold(toks[i].text, "X") &&
		toks[i+1].kind == tokString && toks[i+1].off == toks[i].end
}

// binaryLiteral reads the hex digits of X'...': an even number of them, as
// Calcite requires.
func binaryLiteral(str token, at Pos) (*Literal, *Error) {
	hex := str.value()
	if len(hex)%2 != 0 {
		return nil, Errorf(ErrInvalid, str.pos, "a binary literal needs an even number of hex digits, got %d", len(hex))
	}
	for _, c := range hex {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return nil, Errorf(ErrInvalid, str.pos, "a binary literal holds hex digits 0-9 and a-f, not %q", c)
		}
	}
	return &Literal{At: at, Kind: LitBinary, Text: hex}, nil
}
