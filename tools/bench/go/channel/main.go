// zar_go_channel_bench: the Go peer of zar_channel_bench.
//
//	BM_GoPingPong                   two goroutines exchange a value
//	                                through two unbuffered channels, 100,000
//	                                round trips per run; reported per round
//	                                trip.
//	BM_GoManyProducersConsumers/N   N producer and N consumer goroutines
//	                                share one channel of capacity 63; each
//	                                producer sends 1,000,000 / N values,
//	                                each consumer receives as many; reported
//	                                per value.
//
// With ZAR_GO_COUNT_BLOCKING set in the environment it times nothing and
// prints, for the second at each size, the sends and receives per value
// that had to wait (countBlocking).
//
// A Go channel, like upstream's, hands a sent value straight to the oldest
// parked receiver. N is 10 to 100,000, as in zar_channel_bench;
// GOMAXPROCS=1. Flags: Google Benchmark's (package harness).
package main

import (
	"fmt"
	"os"
	"runtime"
	"time"

	"zend-async-ref/tools/bench/go/internal/harness"
)

const (
	pingPongRounds = 100000
	capacity       = 63
)

func pingPong(_, iterations int) time.Duration {
	var total time.Duration
	for i := 0; i < iterations; i++ {
		ping, pong := make(chan int), make(chan int)
		done := make(chan struct{})
		start := time.Now()
		go func() {
			for round := 0; round < pingPongRounds; round++ {
				ping <- round
				<-pong
			}
			done <- struct{}{}
		}()
		go func() {
			for round := 0; round < pingPongRounds; round++ {
				pong <- <-ping
			}
			done <- struct{}{}
		}()
		<-done
		<-done
		total += time.Since(start)
	}
	return total
}

func manyProducersConsumers(n int) time.Duration {
	values := make(chan int, capacity)
	each := harness.RoundsAt(n)
	// The n consumers first, then the n producers, as the coroutines are
	// spawned in zar_channel_bench: goroutines 0 to n-1 consume.
	return harness.Goroutines(2*n, func(i int) {
		if i < n {
			for i := 0; i < each; i++ {
				<-values
			}
		} else {
			for i := 0; i < each; i++ {
				values <- i
			}
		}
	})
}

// countBlocking runs the workload of BM_GoManyProducersConsumers/n once,
// each send and receive first tried without blocking, and prints how many
// per value had to wait (a goroutine parked, later woken: a switch each).
// Untimed: ZAR_GO_COUNT_BLOCKING=1 zar_go_channel_bench.
func countBlocking(n int) {
	values := make(chan int, capacity)
	each := harness.RoundsAt(n)
	var sends, receives int
	harness.Goroutines(2*n, func(i int) {
		if i < n {
			for i := 0; i < each; i++ {
				select {
				case <-values:
				default:
					receives++
					<-values
				}
			}
		} else {
			for i := 0; i < each; i++ {
				select {
				case values <- i:
				default:
					sends++
					values <- i
				}
			}
		}
	})
	total := float64(n * each)
	fmt.Printf("BM_GoManyProducersConsumers/%d: %.3f sends and %.3f receives waited per value\n",
		n, float64(sends)/total, float64(receives)/total)
}

func main() {
	if os.Getenv("ZAR_GO_COUNT_BLOCKING") != "" {
		runtime.GOMAXPROCS(1)
		for _, n := range harness.Sizes {
			countBlocking(n)
		}
		return
	}
	harness.Main([]harness.Benchmark{
		{
			Name:       "BM_GoPingPong",
			Operations: func(int) float64 { return pingPongRounds },
			Run:        pingPong,
		},
		harness.Workload("BM_GoManyProducersConsumers", manyProducersConsumers),
	})
}
