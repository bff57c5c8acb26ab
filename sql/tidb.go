package sql

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	_ "github.com/pingcap/tidb/pkg/parser/test_driver" // literal values for TiDB's AST
)

// tidbParse hands rewritten text to TiDB. On a syntax error it returns the
// offset in text where TiDB stopped, or -1 when the error has no position.
func tidbParse(text string) ([]ast.StmtNode, int, error) {
	p := parser.New()
	mode, _ := mysql.GetSQLMode(mysql.DefaultSQLMode)
	// Flink strings have no backslash escapes, and || concatenates.
	p.SetSQLMode(mode | mysql.ModeNoBackslashEscapes | mysql.ModePipesAsConcat)
	nodes, _, err := p.ParseSQL(text)
	if err != nil {
		return nil, nearOffset(err.Error(), text), err
	}
	return nodes, 0, nil
}

// nearOffset recovers where TiDB stopped from its message. TiDB's scanner
// formats `line L column C near "REST"MSG [(total length N)]` where REST is
// the input from the failing token to the end, cut at 2048 bytes, and then
// N is the length of the whole suffix. So the offset is len(text) minus the
// suffix length; the suffix is checked against text, not trusted.
func nearOffset(msg, text string) int {
	const near = `near "`
	k := strings.Index(msg, near)
	if k < 0 {
		return -1
	}
	rest := msg[k+len(near):]
	const total = "(total length "
	if t := strings.LastIndex(rest, total); t >= 0 && strings.HasSuffix(rest, ")") {
		n, err := strconv.Atoi(rest[t+len(total) : len(rest)-1])
		if err == nil && n <= len(text) && strings.HasPrefix(rest, text[len(text)-n:][:min(n, 2048)]) {
			return len(text) - n
		}
	}
	// Plain syntax errors end with `" ` (empty MSG); check that first.
	if n := len(rest) - len(`" `); n >= 0 && n <= len(text) && strings.HasSuffix(rest, `" `) && text[len(text)-n:] == rest[:n] {
		return len(text) - n
	}
	for off := 0; off <= len(text); off++ {
		n := len(text) - off
		if len(rest) > n && rest[n] == '"' && rest[:n] == text[off:] {
			return off
		}
	}
	return -1
}
