// Command gmp4jbench is the Go side of the gmp4j benchmarks: the same programs as
// io.gmp4j.bench.Bodies, written the way Go programs write them.
//
//	bin/gmp4jbench <bench> <reps>
//
// bench is spawn, skynet or fib; reps is W+M (W warm-up, M measured repetitions) or M (3
// warm-up). GOMAXPROCS comes from the environment. It prints the result line BenchChild prints:
//
//	@result bench=skynet impl=go procs=2 value=123.456 unit=ms samples=120.000,123.456,130.000
//
// (value = median of the measured samples) and exits 1 on a wrong result.
package main

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

const (
	spawnN         = 1000000
	skynetSize     = 1000000
	skynetDiv      = 10
	skynetExpected = int64(499999500000)
	fibN           = 32
	fibSpawnDepth  = 12
	fibExpected    = int64(2178309)
)

// spawn starts n goroutines from the calling goroutine and waits until all ran: an atomic
// countdown plus a one-shot completion, as in the Java version.
func spawn(n int) int64 {
	var pending int64 = int64(n)
	done := make(chan struct{})
	task := func() {
		if atomic.AddInt64(&pending, -1) == 0 {
			close(done)
		}
	}
	for i := 0; i < n; i++ {
		go task()
	}
	<-done
	return int64(n)
}

// skynetNode is the classic skynet: a leaf sends its number, a node the sum of its children.
func skynetNode(c chan<- int64, num int64, size, div int) {
	if size == 1 {
		c <- num
		return
	}
	rc := make(chan int64)
	sub := size / div
	for i := 0; i < div; i++ {
		go skynetNode(rc, num+int64(i)*int64(sub), sub, div)
	}
	var sum int64
	for i := 0; i < div; i++ {
		sum += <-rc
	}
	c <- sum
}

func skynet(size, div int) int64 {
	c := make(chan int64)
	go skynetNode(c, 0, size, div)
	return <-c
}

func fibSeq(n int) int64 {
	if n < 2 {
		return int64(n)
	}
	return fibSeq(n-1) + fibSeq(n-2)
}

// fibNode runs both halves as goroutines at recursion depth < spawnDepth.
func fibNode(n, depth, spawnDepth int) int64 {
	if depth >= spawnDepth || n < 2 {
		return fibSeq(n)
	}
	c := make(chan int64, 2)
	go func() { c <- fibNode(n-1, depth+1, spawnDepth) }()
	go func() { c <- fibNode(n-2, depth+1, spawnDepth) }()
	return <-c + <-c
}

func body(bench string) (int64, int64) {
	switch bench {
	case "spawn":
		return spawn(spawnN), spawnN
	case "skynet":
		return skynet(skynetSize, skynetDiv), skynetExpected
	case "fib":
		return fibNode(fibN, 0, fibSpawnDepth), fibExpected
	}
	fmt.Fprintf(os.Stderr, "gmp4jbench: unknown benchmark %q (spawn, skynet, fib)\n", bench)
	os.Exit(2)
	return 0, 0
}

func parseReps(s string) (int, int, error) {
	warm, meas := "3", s
	if i := strings.IndexByte(s, '+'); i >= 0 {
		warm, meas = s[:i], s[i+1:]
	}
	w, err := strconv.Atoi(warm)
	if err != nil || w < 0 {
		return 0, 0, fmt.Errorf("bad warm-up count in %q", s)
	}
	m, err := strconv.Atoi(meas)
	if err != nil || m < 1 {
		return 0, 0, fmt.Errorf("bad measured count in %q", s)
	}
	return w, m, nil
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gmp4jbench <spawn|skynet|fib> <warmup+measured>")
		os.Exit(2)
	}
	bench := os.Args[1]
	warm, meas, err := parseReps(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "gmp4jbench:", err)
		os.Exit(2)
	}
	samples := make([]float64, 0, meas)
	for rep := 0; rep < warm+meas; rep++ {
		runtime.GC()
		t0 := time.Now()
		got, want := body(bench)
		elapsed := time.Since(t0)
		if got != want {
			fmt.Fprintf(os.Stderr, "gmp4jbench: %s: WRONG RESULT %d, expected %d\n", bench, got, want)
			os.Exit(1)
		}
		if rep >= warm {
			samples = append(samples, float64(elapsed.Nanoseconds())/1e6)
		}
	}
	strs := make([]string, len(samples))
	for i, v := range samples {
		strs[i] = strconv.FormatFloat(v, 'f', 3, 64)
	}
	fmt.Printf("@result bench=%s impl=go procs=%d value=%s unit=ms samples=%s\n",
		bench, runtime.GOMAXPROCS(0), strconv.FormatFloat(median(samples), 'f', 3, 64), strings.Join(strs, ","))
}
