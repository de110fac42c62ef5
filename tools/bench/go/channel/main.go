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
// A Go channel, like upstream's, hands a sent value straight to the oldest
// parked receiver. N is 10 to 100,000, as in zar_channel_bench;
// GOMAXPROCS=1. Flags: Google Benchmark's (package harness).
package main

import (
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
	// Producers and consumers alternate, as the coroutines are spawned in
	// zar_channel_bench: goroutine 2k produces, 2k+1 consumes.
	return harness.Goroutines(2*n, func(i int) {
		if i%2 == 0 {
			for i := 0; i < each; i++ {
				values <- i
			}
		} else {
			for i := 0; i < each; i++ {
				<-values
			}
		}
	})
}

func main() {
	harness.Main([]harness.Benchmark{
		{
			Name:       "BM_GoPingPong",
			Operations: func(int) float64 { return pingPongRounds },
			Run:        pingPong,
		},
		harness.Workload("BM_GoManyProducersConsumers", manyProducersConsumers),
	})
}
