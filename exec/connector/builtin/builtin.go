// Package builtin registers the connectors and formats wsql ships: import
// it for its side effects, as the root package and the planner's tests do.
// A new connector is one folder under exec/connector and one import here.
package builtin

import (
	_ "github.com/wsql/wsql/exec/connector/blackhole"
	_ "github.com/wsql/wsql/exec/connector/datagen"
	_ "github.com/wsql/wsql/exec/connector/filesystem"
	_ "github.com/wsql/wsql/exec/connector/formats"
	_ "github.com/wsql/wsql/exec/connector/gotable"
	_ "github.com/wsql/wsql/exec/connector/jdbc"
	_ "github.com/wsql/wsql/exec/connector/kafka"
	_ "github.com/wsql/wsql/exec/connector/nexmark"
	_ "github.com/wsql/wsql/exec/connector/pgcdc"
	_ "github.com/wsql/wsql/exec/connector/print"
	_ "github.com/wsql/wsql/exec/connector/stdin"
)
