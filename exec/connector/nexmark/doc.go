// Package nexmark is the 'nexmark' connector: the person, auction and bid
// tables of the Nexmark benchmark, generated from the event number. It
// registers itself with exec/connector.
package nexmark
