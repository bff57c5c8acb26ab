package wsql

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/pgtest"
)

// cdcTable declares a postgres-cdc table of the test server's database.
func cdcTable(pg *pgtest.Server, db, name, columns, table, slot, more string) string {
	return fmt.Sprintf(`CREATE TABLE %s (%s) WITH (
  'connector' = 'postgres-cdc', 'hostname' = '127.0.0.1', 'port' = '%d', 'username' = '%s',
  'database-name' = '%s', 'table-name' = '%s', 'slot.name' = '%s'%s);
`, name, columns, pg.Port, pgtest.Superuser, db, table, slot, more)
}

// cdcResult applies the update stream of a query's result to a table
// by its first keys columns (after the row kind), as Flink's SQL client
// shows a result in table mode: rows as text, a line each, sorted.
type cdcResult struct {
	mu   sync.Mutex
	rows map[string]string
	keys int
}

func (m *cdcResult) read(rows *Rows) {
	for rows.Next() {
		b := rows.RecordBatch()
		m.mu.Lock()
		for i := 0; i < int(b.NumRows()); i++ {
			var fields []string
			for c := 1; c < int(b.NumCols()); c++ {
				fields = append(fields, ValueText(b.Column(c), i, time.UTC))
			}
			key := strings.Join(fields[:m.keys], ",")
			switch b.Column(0).(*array.String).Value(i) {
			case "+I", "+U":
				m.rows[key] = strings.Join(fields, ",")
			default:
				delete(m.rows, key)
			}
		}
		m.mu.Unlock()
	}
}

func (m *cdcResult) lines() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for _, r := range m.rows {
		out = append(out, r)
	}
	slices.Sort(out)
	return out
}

// waitFor waits until the cdcResult result is want, failing the test
// with the last result after the timeout.
func (m *cdcResult) waitFor(t *testing.T, want []string, rows *Rows) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if slices.Equal(m.lines(), want) {
			return
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("the query failed: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	require.Equal(t, want, m.lines(), "the cdcResult result never became the expected one")
}

// A GROUP BY over a postgres-cdc table follows the table: the snapshot,
// then inserts, updates and deletes made while the query runs, its
// result cdcResult equal to the same aggregation in PostgreSQL.
func TestCDCGroupByFollowsTheTable(t *testing.T) {
	pg := pgtest.Start(t)
	for _, size := range []int{1, 4096} {
		t.Run(fmt.Sprint("batch size ", size), func(t *testing.T) {
			db := pg.NewDatabase(t)
			pg.Exec(t, db, `CREATE TABLE orders (id int PRIMARY KEY, customer text NOT NULL, amount bigint, price numeric(10,2), placed timestamptz);
ALTER TABLE orders REPLICA IDENTITY FULL;
INSERT INTO orders SELECT i, 'c' || (i % 3), i * 10, i * 1.5, '2024-01-01 00:00:00+00'::timestamptz + i * interval '1 minute' FROM generate_series(1, 10) i;`)
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			e := New(WithAllocator(mem), WithBatchSize(size))
			defer e.Close()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			require.NoError(t, e.Exec(ctx, cdcTable(pg, db, "orders", `id INT, customer STRING, amount BIGINT, price DECIMAL(10, 2),
  placed TIMESTAMP_LTZ(6), PRIMARY KEY (id) NOT ENFORCED`, "orders", db+"_slot", "")))
			rows, err := e.Query(ctx, `SELECT customer, SUM(amount) AS total, COUNT(*) AS n, MAX(price) AS top, MIN(placed) AS first FROM orders GROUP BY customer`)
			require.NoError(t, err)
			m := &cdcResult{rows: map[string]string{}, keys: 1}
			done := make(chan struct{})
			go func() { defer close(done); m.read(rows) }()
			expected := func() []string {
				return pg.QueryIn(t, db, `SELECT customer, sum(amount), count(*), max(price), to_char(min(placed) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US')
					FROM orders GROUP BY customer ORDER BY 1`)
			}
			m.waitFor(t, expected(), rows)
			pg.Exec(t, db, `INSERT INTO orders VALUES (11, 'c9', 5, 1.25, '2023-12-31 23:00:00+00')`)
			pg.Exec(t, db, `UPDATE orders SET amount = amount + 1 WHERE id % 2 = 0`)
			pg.Exec(t, db, `UPDATE orders SET customer = 'c0' WHERE id = 1`)
			pg.Exec(t, db, `DELETE FROM orders WHERE id IN (3, 4)`)
			pg.Exec(t, db, `BEGIN; DELETE FROM orders WHERE customer = 'c2'; INSERT INTO orders VALUES (20, 'c2', 1, 0.5, NULL); COMMIT`)
			m.waitFor(t, expected(), rows)
			cancel()
			<-done
			rows.Close()
		})
	}
}

// A postgres-cdc table is a versioned table of an event-time temporal
// join: each payment takes the rate valid at its time, also after the
// rate is updated in PostgreSQL while the query runs.
func TestCDCVersionedTableOfATemporalJoin(t *testing.T) {
	pg := pgtest.Start(t)
	db := pg.Database
	pg.Exec(t, db, `CREATE TABLE rates (currency text PRIMARY KEY, rate numeric(5,2), updated timestamp(3) NOT NULL);
ALTER TABLE rates REPLICA IDENTITY FULL;
INSERT INTO rates VALUES ('EUR', 1.10, '2024-01-01 10:00:00'), ('USD', 1.00, '2024-01-01 10:00:00');`)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	e := New(WithAllocator(mem))
	defer e.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	require.NoError(t, e.Exec(ctx, cdcTable(pg, db, "rates", `currency STRING, rate DECIMAL(5, 2), updated TIMESTAMP(3),
  PRIMARY KEY (currency) NOT ENFORCED, WATERMARK FOR updated AS updated`, "rates", "rates_slot", "")))
	// the payments: a CSV file followed as it grows
	path := filepath.Join(t.TempDir(), "payments.csv")
	require.NoError(t, os.WriteFile(path, nil, 0o644))
	require.NoError(t, e.Exec(ctx, fmt.Sprintf(`CREATE TABLE payments (ts TIMESTAMP(3), id STRING, currency STRING, WATERMARK FOR ts AS ts)
  WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', 'source.monitor-interval' = '50 ms')`, path)))
	pay := func(line string) {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		require.NoError(t, err)
		_, err = f.WriteString(line + "\n")
		require.NoError(t, err)
		require.NoError(t, f.Close())
	}
	rows, err := e.Query(ctx, `SELECT p.id, r.rate, r.updated FROM payments AS p JOIN rates FOR SYSTEM_TIME AS OF p.ts AS r ON p.currency = r.currency`)
	require.NoError(t, err)
	var mu sync.Mutex
	var got []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		for rows.Next() {
			b := rows.RecordBatch()
			mu.Lock()
			for i := 0; i < int(b.NumRows()); i++ {
				got = append(got, fmt.Sprintf("%s %s %s", ValueText(b.Column(0), i, time.UTC), ValueText(b.Column(1), i, time.UTC), ValueText(b.Column(2), i, time.UTC)))
			}
			mu.Unlock()
		}
	}()
	waitForSlot(t, pg, db, "rates_slot") // the snapshot is read: what follows is the stream's
	pay("2024-01-01 10:00:05,p1,EUR")
	pay("2024-01-01 10:00:06,p2,USD")
	pg.Exec(t, db, `UPDATE rates SET rate = 1.20, updated = '2024-01-01 10:00:10' WHERE currency = 'EUR'`)
	pay("2024-01-01 10:00:15,p3,EUR")
	// both sides' watermarks past p3: the rates by a change of USD, the
	// payments by a later payment, which waits for a later rate
	pg.Exec(t, db, `UPDATE rates SET rate = 1.05, updated = '2024-01-01 10:00:30' WHERE currency = 'USD'`)
	pay("2024-01-01 10:00:40,p4,USD")
	want := []string{"p1 1.10 2024-01-01 10:00:00.000", "p2 1.00 2024-01-01 10:00:00.000", "p3 1.20 2024-01-01 10:00:10.000"}
	deadline := time.Now().Add(30 * time.Second)
	for {
		mu.Lock()
		g := slices.Clone(got)
		mu.Unlock()
		slices.Sort(g)
		if slices.Equal(g, want) || time.Now().After(deadline) {
			require.Equal(t, want, g)
			break
		}
		require.NoError(t, rows.Err())
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	<-done
	rows.Close()
}

// waitForSlot waits until a read streams from replication slot slot: its
// snapshot is read.
func waitForSlot(t *testing.T, pg *pgtest.Server, db, slot string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if got := pg.QueryIn(t, db, "SELECT active FROM pg_replication_slots WHERE slot_name = '"+slot+"'"); len(got) == 1 && got[0] == "t" {
			return
		}
	}
	t.Fatalf("replication slot %s never became active", slot)
}
