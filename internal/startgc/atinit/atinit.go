// Package atinit turns the garbage collector off for a program's start
// (startgc.Off) when it is initialised: a program's main package imports
// it, for its side effect, so that it runs among the first initialisers.
package atinit

import "github.com/wsql/wsql/internal/startgc"

func init() { startgc.Off() }
