package wsql

// The connectors and formats wsql ships register themselves with
// exec/connector on import; every Engine plans with them.
import _ "github.com/wsql/wsql/exec/connector/builtin"
