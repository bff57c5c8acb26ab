package joinop

import (
	"errors"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/pipeline"
)

func newTemporalJoin(cfg Config, mem memory.Allocator, out pipeline.Operator) (Operator, error) {
	return nil, errors.New("event-time temporal joins are not supported yet")
}
