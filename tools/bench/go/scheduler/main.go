// zar_go_scheduler_bench: the Go peer of zar_scheduler_bench.
//
//	BM_GoYieldRoundTrip  two goroutines yield to each other with
//	                     runtime.Gosched() on one P (GOMAXPROCS=1); one
//	                     iteration = one yield of the measuring goroutine,
//	                     a round trip through the other one, as
//	                     BM_SchedulerYieldRoundTrip and
//	                     BM_BoostFiberYieldRoundTrip.
//
// Flags: Google Benchmark's (package harness).
package main

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"zend-async-ref/tools/bench/go/internal/harness"
)

func yieldRoundTrip(_, iterations int) time.Duration {
	var done atomic.Bool
	var partner sync.WaitGroup
	partner.Add(1)
	go func() {
		for !done.Load() {
			runtime.Gosched()
		}
		partner.Done()
	}()
	start := time.Now()
	for i := 0; i < iterations; i++ {
		runtime.Gosched()
	}
	elapsed := time.Since(start)
	done.Store(true)
	partner.Wait()
	return elapsed
}

func main() {
	harness.Main([]harness.Benchmark{{
		Name:       "BM_GoYieldRoundTrip",
		Operations: func(int) float64 { return 1 },
		Run:        yieldRoundTrip,
	}})
}
