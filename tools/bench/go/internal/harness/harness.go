// Package harness runs the Go peers of zend-async-ref's benchmarks the way
// Google Benchmark runs ours, and reports them the same way, so that
// tools/bench/run.sh reads both alike.
//
// Every program runs on one OS thread's worth of Go scheduler
// (runtime.GOMAXPROCS(1)): goroutines are then multiplexed on one P, as our
// coroutines are on one thread and Boost.Fiber's fibers on theirs.
//
// A benchmark's Run does `iterations` iterations and returns their time.
// Like Google Benchmark the harness starts at one iteration and grows the
// count until a run takes at least -benchmark_min_time seconds, then
// reports that run; each repetition starts from the count the one before
// found. Reported per operation: the time over iterations × Operations(n)
// (an iteration of a workload of n goroutines does kSweepOperations
// operations, tools/bench/sweep.h).
//
// Flags (Google Benchmark's names, so one command line fits both):
//
//	-benchmark_filter=REGEXP            the benchmarks whose names match
//	-benchmark_min_time=SECONDS         0.5 unless given
//	-benchmark_repetitions=N            1 unless given; with more, the mean,
//	                                    median and stddev are reported too
//	-benchmark_report_aggregates_only   only those
//	-benchmark_out=FILE                 also writes the report as JSON, in
//	                                    Google Benchmark's layout
//	-benchmark_out_format=json          the only format
package harness

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"regexp"
	"runtime"
	"sort"
	"sync"
	"time"
)

// SweepOperations is the number of operations per iteration of a workload
// at every size; Sizes the sizes (tools/bench/sweep.h's kSweepOperations
// and kSweepSizes).
const SweepOperations = 1000000

var Sizes = []int{10, 100, 1000, 10000, 100000}

// RoundsAt is the rounds (or values) each of n goroutines does.
func RoundsAt(n int) int { return SweepOperations / n }

// Benchmark is one benchmark, or one per size when Sizes is not nil
// (named Name/size).
type Benchmark struct {
	Name       string
	Sizes      []int
	Operations func(size int) float64
	Run        func(size, iterations int) time.Duration
}

// Goroutines starts n goroutines, the i-th running body(i), and returns
// the time until every one of them has returned.
func Goroutines(n int, body func(i int)) time.Duration {
	var done sync.WaitGroup
	done.Add(n)
	start := time.Now()
	for i := 0; i < n; i++ {
		go func(i int) {
			body(i)
			done.Done()
		}(i)
	}
	done.Wait()
	return time.Since(start)
}

// Workload is a benchmark of SweepOperations operations per iteration at
// each size: every iteration calls run(size), which returns its time.
func Workload(name string, run func(size int) time.Duration) Benchmark {
	return Benchmark{
		Name:       name,
		Sizes:      Sizes,
		Operations: func(int) float64 { return SweepOperations },
		Run: func(size, iterations int) time.Duration {
			var total time.Duration
			for i := 0; i < iterations; i++ {
				total += run(size)
			}
			return total
		},
	}
}

// result is one entry of the report: a repetition or an aggregate.
type result struct {
	Name            string  `json:"name"`
	RunName         string  `json:"run_name"`
	RunType         string  `json:"run_type"`
	AggregateName   string  `json:"aggregate_name,omitempty"`
	Repetitions     int     `json:"repetitions"`
	RepetitionIndex int     `json:"repetition_index"`
	Iterations      int     `json:"iterations"`
	RealTime        float64 `json:"real_time"`
	TimeUnit        string  `json:"time_unit"`
}

type report struct {
	Context    map[string]interface{} `json:"context"`
	Benchmarks []result               `json:"benchmarks"`
}

var (
	filter         = flag.String("benchmark_filter", ".", "")
	minTime        = flag.Float64("benchmark_min_time", 0.5, "")
	repetitions    = flag.Int("benchmark_repetitions", 1, "")
	aggregatesOnly = flag.Bool("benchmark_report_aggregates_only", false, "")
	out            = flag.String("benchmark_out", "", "")
	outFormat      = flag.String("benchmark_out_format", "json", "")
)

// measure runs b at size until one run takes at least -benchmark_min_time;
// returns that run's time per operation in nanoseconds and its
// iterations. *iterations is the count to start from, and is left at the
// count found.
func measure(b Benchmark, size int, iterations *int) (float64, int) {
	const maxIterations = 1000000000
	for {
		n := *iterations
		seconds := b.Run(size, n).Seconds()
		if seconds >= *minTime || n >= maxIterations {
			return seconds * 1e9 / (float64(n) * b.Operations(size)), n
		}
		// Google Benchmark's prediction: aim 40 % past the minimum, at most
		// ten times more while a run is under a tenth of it.
		multiplier := *minTime * 1.4 / math.Max(seconds, 1e-9)
		if seconds/(*minTime) <= 0.1 {
			multiplier = 10
		}
		next := int(math.Max(multiplier*float64(n), float64(n+1)))
		if next > maxIterations {
			next = maxIterations
		}
		*iterations = next
	}
}

func aggregate(name string, times []float64, iterations int) []result {
	sorted := append([]float64(nil), times...)
	sort.Float64s(sorted)
	mean := 0.0
	for _, t := range times {
		mean += t
	}
	mean /= float64(len(times))
	median := sorted[len(sorted)/2]
	if len(sorted)%2 == 0 {
		median = (sorted[len(sorted)/2-1] + sorted[len(sorted)/2]) / 2
	}
	variance := 0.0
	for _, t := range times {
		variance += (t - mean) * (t - mean)
	}
	stddev := 0.0
	if len(times) > 1 {
		stddev = math.Sqrt(variance / float64(len(times)-1))
	}
	var results []result
	for _, a := range []struct {
		name  string
		value float64
	}{{"mean", mean}, {"median", median}, {"stddev", stddev}} {
		results = append(results, result{
			Name: name + "_" + a.name, RunName: name, RunType: "aggregate",
			AggregateName: a.name, Repetitions: len(times),
			Iterations: iterations, RealTime: a.value, TimeUnit: "ns",
		})
	}
	return results
}

func printResult(r result) {
	fmt.Printf("%-50s %12.1f ns %12d\n", r.Name, r.RealTime, r.Iterations)
}

// Main runs the benchmarks the flags select and reports them; it sets
// GOMAXPROCS to 1 first.
func Main(benchmarks []Benchmark) {
	runtime.GOMAXPROCS(1)
	flag.Parse()
	if *outFormat != "json" {
		fmt.Fprintln(os.Stderr, "-benchmark_out_format: only json")
		os.Exit(1)
	}
	selected, err := regexp.Compile(*filter)
	if err != nil {
		fmt.Fprintln(os.Stderr, "-benchmark_filter:", err)
		os.Exit(1)
	}
	all := report{Context: map[string]interface{}{
		"date":       time.Now().Format(time.RFC3339),
		"executable": os.Args[0],
		"go_version": runtime.Version(),
		"gomaxprocs": runtime.GOMAXPROCS(0),
	}}
	fmt.Printf("%-50s %15s %12s\n", "Benchmark (GOMAXPROCS=1, per operation)",
		"Time", "Iterations")
	for _, b := range benchmarks {
		sizes := b.Sizes
		if sizes == nil {
			sizes = []int{0}
		}
		for _, size := range sizes {
			name := b.Name
			if b.Sizes != nil {
				name = fmt.Sprintf("%s/%d", b.Name, size)
			}
			if !selected.MatchString(name) {
				continue
			}
			iterations := 1
			var times []float64
			for i := 0; i < *repetitions; i++ {
				ns, n := measure(b, size, &iterations)
				times = append(times, ns)
				r := result{Name: name, RunName: name, RunType: "iteration",
					Repetitions: *repetitions, RepetitionIndex: i,
					Iterations: n, RealTime: ns, TimeUnit: "ns"}
				if !*aggregatesOnly || *repetitions == 1 {
					printResult(r)
				}
				all.Benchmarks = append(all.Benchmarks, r)
			}
			if *repetitions > 1 {
				for _, r := range aggregate(name, times, iterations) {
					printResult(r)
					all.Benchmarks = append(all.Benchmarks, r)
				}
			}
		}
	}
	if *out != "" {
		text, err := json.MarshalIndent(all, "", "  ")
		if err == nil {
			err = os.WriteFile(*out, append(text, '\n'), 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "-benchmark_out:", err)
			os.Exit(1)
		}
	}
}
