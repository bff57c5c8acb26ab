package planner

// The planner's tests plan tables of every connector wsql ships.
import _ "github.com/wsql/wsql/exec/connector/builtin"
