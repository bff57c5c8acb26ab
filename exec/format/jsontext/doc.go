// Package jsontext holds the JSON decoder's text helpers that need no
// decoder state: a checked string body unescaped, checked JSON text
// compacted, a number with a fraction or exponent rewritten as integer
// digits, and a \u escape's hex digits.
package jsontext
