package audit

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkArchivePass archives 2,000 decisions, action records and trust
// rows in one pass, and reports the rows moved per second and the
// archive's bytes per row.
func BenchmarkArchivePass(b *testing.B) {
	const n = 2_000
	ages := make([]time.Duration, n)
	for i := range ages {
		ages[i] = 48*time.Hour + time.Duration(i)*time.Second
	}
	var rows int64
	var moved time.Duration
	for b.Loop() {
		b.StopTimer()
		f := newFixture(b)
		f.add(ages...)
		f.add(time.Minute) // stays live
		a := f.archiver(0)
		b.StartTimer()
		start := time.Now()
		res, err := a.Pass(b.Context(), now)
		moved += time.Since(start)
		b.StopTimer()
		if err != nil || res.Rows["decisions"] != n || res.Rows["trust"] != n {
			b.Fatalf("pass: %v, %v", res.Rows, err)
		}
		var size int64
		for _, file := range res.Files {
			if info, err := os.Stat(filepath.Join(f.dir, file.Name)); err == nil {
				size += info.Size()
			}
		}
		rows += 3 * n
		b.ReportMetric(float64(size)/float64(3*n), "archive-bytes/row")
		b.StartTimer()
	}
	b.ReportMetric(float64(rows)/moved.Seconds(), "rows/s")
}
