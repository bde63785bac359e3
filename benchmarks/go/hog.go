package main

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"sync/atomic"
	"time"
)

// hog: io.gmp4j.bench.AgentBench's loop-preemption benchmark in Go, for reference. At
// GOMAXPROCS=1 the main goroutine spins in a counting loop for 2 s while another sleeps 1 ms
// in a loop; the figures are the sleeper's lateness past its 1 ms (p50, p99 and max in ms, one
// 2 s run a repetition: rows hog-p50, hog-p99, hog-max). Go preempts the spinner
// asynchronously: sysmon signals a goroutine that has run for 10 ms, and the preempted one
// goes to the global queue.

const (
	hogDuration = 2 * time.Second
	hogTick     = time.Millisecond
)

// hogSpin counts until end; time.Now is the loop's only call, as System.nanoTime is in the
// Java spinner.
func hogSpin(end time.Time) int64 {
	var n int64
	for time.Now().Before(end) {
		n++
	}
	return n
}

// hogOnce is one 2 s run: the sleeper's lateness of every tick, sorted, in ms. The sleeper's
// first tick counts from before it tells the spinner to start; it stops after its first
// wake-up past the spin's end.
func hogOnce() []float64 {
	var hogEnd atomic.Int64 // the spin's end in ns since start, 0 before it starts
	start := time.Now()
	started := make(chan bool, 1)
	done := make(chan []float64, 1)
	go func() {
		late := make([]float64, 0, int(hogDuration/hogTick)+1)
		t0 := time.Now()
		started <- true
		for len(late) < cap(late) {
			time.Sleep(hogTick)
			now := time.Now()
			late = append(late, float64(now.Sub(t0)-hogTick)/1e6)
			t0 = now
			if end := hogEnd.Load(); end != 0 && now.Sub(start) >= time.Duration(end) {
				break
			}
		}
		done <- late
	}()
	<-started
	end := time.Now().Add(hogDuration)
	hogEnd.Store(int64(end.Sub(start)))
	if hogSpin(end) <= 0 {
		fmt.Fprintln(os.Stderr, "gmp4jbench: hog: the hog did not spin")
		os.Exit(1)
	}
	late := <-done
	sort.Float64s(late)
	return late
}

// hogPercentile is the q-quantile of sorted, the same rank as the Java side's.
func hogPercentile(sorted []float64, q float64) float64 {
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	if i < 0 {
		i = 0
	}
	if i > len(sorted)-1 {
		i = len(sorted) - 1
	}
	return sorted[i]
}

func runHog(warm, meas int) {
	if n := runtime.GOMAXPROCS(0); n != 1 {
		fmt.Fprintf(os.Stderr, "gmp4jbench: hog runs at GOMAXPROCS=1 only (got %d)\n", n)
		os.Exit(2)
	}
	var p50, p99, max []float64
	plan := newRepPlan(warm, meas)
	for plan.next() {
		late := hogOnce()
		fmt.Fprintf(os.Stderr, "hog go: %d ticks, lateness p50 %.3f p99 %.3f max %.3f ms\n", len(late),
			hogPercentile(late, 0.50), hogPercentile(late, 0.99), late[len(late)-1])
		if plan.measuring {
			p50 = append(p50, hogPercentile(late, 0.50))
			p99 = append(p99, hogPercentile(late, 0.99))
			max = append(max, late[len(late)-1])
		}
	}
	printResult("hog-p50", p50, "ms")
	printResult("hog-p99", p99, "ms")
	printResult("hog-max", max, "ms")
}
