package function

// init adds the family at its place in the registry.
func init() { addFamily(120, hashFunctions) }

// hashFunctions are Flink's hash functions: the digest of a string's UTF-8
// bytes as lower-case hexadecimal.
var hashFunctions = []Function{
	{Name: "MD5", Kind: ScalarFunction, Description: "the MD5 hash as 32 hexadecimal digits",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}},
		Compile:    textKernel("MD5", tString)},
	{Name: "SHA1", Kind: ScalarFunction, Description: "the SHA-1 hash as 40 hexadecimal digits",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}},
		Compile:    textKernel("SHA1", tString)},
	{Name: "SHA224", Kind: ScalarFunction, Description: "the SHA-224 hash as 56 hexadecimal digits",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}},
		Compile:    textKernel("SHA224", tString)},
	{Name: "SHA256", Kind: ScalarFunction, Description: "the SHA-256 hash as 64 hexadecimal digits",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}},
		Compile:    textKernel("SHA256", tString)},
	{Name: "SHA384", Kind: ScalarFunction, Description: "the SHA-384 hash as 96 hexadecimal digits",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}},
		Compile:    textKernel("SHA384", tString)},
	{Name: "SHA512", Kind: ScalarFunction, Description: "the SHA-512 hash as 128 hexadecimal digits",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Result: "STRING"}},
		Compile:    textKernel("SHA512", tString)},
	{Name: "SHA2", Kind: ScalarFunction, Description: "the SHA-2 hash of bits 224, 256, 384 or 512 as hexadecimal; NULL for another length",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}, {Name: "bits", Type: ArgInteger}}, Result: "STRING"}},
		Compile:    textKernel("SHA2", tString)},
}
