package connector

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// memoryUnits are Flink's MemorySize units (powers of 1024).
var memoryUnits = map[string]int64{
	"": 1, "b": 1, "bytes": 1,
	"k": 1 << 10, "kb": 1 << 10, "kibibytes": 1 << 10,
	"m": 1 << 20, "mb": 1 << 20, "mebibytes": 1 << 20,
	"g": 1 << 30, "gb": 1 << 30, "gibibytes": 1 << 30,
	"t": 1 << 40, "tb": 1 << 40, "tebibytes": 1 << 40,
}

// ParseMemorySize reads a size as Flink writes one: '256 mb', '1gb',
// '512 kb' or plain bytes; key names the setting in errors.
func ParseMemorySize(key, v string) (int64, error) {
	t := strings.TrimSpace(v)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	bad := fmt.Errorf("invalid '%s' %q: use a positive size such as '512 kb', '64 mb', '1 gb' or a number of bytes", key, v)
	n, err := strconv.ParseInt(t[:i], 10, 64)
	unit, ok := memoryUnits[strings.ToLower(strings.TrimSpace(t[i:]))]
	if i == 0 || err != nil || !ok || n <= 0 || n > math.MaxInt64/unit {
		return 0, bad
	}
	return n * unit, nil
}
