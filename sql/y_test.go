package sql

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestY(t *testing.T) {
	files, _ := filepath.Glob(os.Getenv("FUZZDIR") + "/*")
	for _, f := range files {
		b, _ := os.ReadFile(f)
		lines := strings.SplitN(string(b), "\n", 3)
		s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "string("), ")"))
		if err != nil {
			continue
		}
		st := time.Now()
		Parse(s)
		if d := time.Since(st); d > 50*time.Millisecond {
			fmt.Printf("%v %q\n", d, s)
		}
	}
}
