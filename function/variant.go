package function

// init adds the family at its place in the registry.
func init() { addFamily(337, variantFunctions) }

// variantFunctions are Flink's functions of VARIANT values (Flink 2.1).
var variantFunctions = []Function{
	{Name: "PARSE_JSON", Kind: ScalarFunction, Description: "a JSON text as a VARIANT; an error for text that is not JSON",
		Signatures:  []Signature{{Params: []Param{{Name: "jsonString", Type: ArgString}, {Name: "allowDuplicateKeys", Type: ArgBoolean, Optional: true}}, Result: "VARIANT"}},
		Unsupported: "it needs the VARIANT type, which wsql does not have yet"},
	{Name: "TRY_PARSE_JSON", Kind: ScalarFunction, Description: "a JSON text as a VARIANT; NULL for text that is not JSON",
		Signatures:  []Signature{{Params: []Param{{Name: "jsonString", Type: ArgString}, {Name: "allowDuplicateKeys", Type: ArgBoolean, Optional: true}}, Result: "VARIANT"}},
		Unsupported: "it needs the VARIANT type, which wsql does not have yet"},
}
