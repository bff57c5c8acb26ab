// Package jsonfast reads a clean JSON line straight into the JSON
// decoder's column buffers, specialised to the schema: it expects each
// object's keys in the order the previous object of that place had them
// and compares the `"key":` bytes at the cursor, scans strings eight bytes
// at a time, and parses integers, decimals and timestamps where they
// stand. It gives up on anything but a clean line; the decoder then rolls
// the line back and reads it again on its general path, which names every
// error. Values it does not specialise go to the decoder's General
// function.
package jsonfast
