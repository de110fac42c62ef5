// zar_go_pool_bench: the Go peer of zar_pool_bench, a pool of 8 resources
// being a buffered channel holding 8 tokens.
//
//	BM_GoChannelReceiveSend        an idle token taken from a buffered
//	                               channel and put back: the peer of
//	                               BM_PoolAcquireReleaseUncontended. One
//	                               iteration = one receive + one send.
//	BM_GoPoolSharedByGoroutines/N  N goroutines share 8 tokens; each does
//	                               1,000,000 / N rounds of: take a token
//	                               (parking when none is left), Gosched,
//	                               put it back. Reported per cycle.
//	BM_GoFloorTwoYields/N          the same N goroutines just Gosched twice
//	                               per round; reported per round.
//
// N is 10 to 100,000, as in zar_pool_bench; GOMAXPROCS=1. Flags: Google
// Benchmark's (package harness).
package main

import (
	"runtime"
	"time"

	"zend-async-ref/tools/bench/go/internal/harness"
)

const resources = 8

func receiveSend(_, iterations int) time.Duration {
	tokens := make(chan int, 1)
	tokens <- 1
	start := time.Now()
	for i := 0; i < iterations; i++ {
		token := <-tokens
		tokens <- token
	}
	return time.Since(start)
}

func sharedByGoroutines(n int) time.Duration {
	tokens := make(chan int, resources)
	for i := 0; i < resources; i++ {
		tokens <- i
	}
	rounds := harness.RoundsAt(n)
	return harness.Goroutines(n, func(int) {
		for round := 0; round < rounds; round++ {
			token := <-tokens
			runtime.Gosched()
			tokens <- token
		}
	})
}

func floorTwoYields(n int) time.Duration {
	rounds := harness.RoundsAt(n)
	return harness.Goroutines(n, func(int) {
		for round := 0; round < rounds; round++ {
			runtime.Gosched()
			runtime.Gosched()
		}
	})
}

func main() {
	harness.Main([]harness.Benchmark{
		{
			Name:       "BM_GoChannelReceiveSend",
			Operations: func(int) float64 { return 1 },
			Run:        receiveSend,
		},
		harness.Workload("BM_GoPoolSharedByGoroutines", sharedByGoroutines),
		harness.Workload("BM_GoFloorTwoYields", floorTwoYields),
	})
}
