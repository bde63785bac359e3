// Command gmp4jbench is the Go side of the gmp4j benchmarks: the same programs as
// io.gmp4j.bench.Bodies, written the way Go programs write them.
//
//	bin/gmp4jbench <bench> <reps>
//	bin/gmp4jbench echo-server | chat-server | proxy-server <upstream-port>
//
// bench is spawn, skynet, fib (ms) or one of the channel benchmarks of
// io.gmp4j.bench.ChanBodies: pingpong, buffered-1p1c, buffered-4p4c, select, threadring
// (ns/op) and sieve (ms); reps is W+M (W warm-up, M measured repetitions) or M (3 warm-up).
// GOMAXPROCS comes from the environment. It prints the result line BenchChild prints:
//
//	@result bench=skynet impl=go procs=2 value=123.456 unit=ms samples=120.000,123.456,130.000
//
// (value = median of the measured samples; pingpong adds a pingpong-cpu line, the process CPU
// time per round trip from getrusage) and exits 1 on a wrong result. The server modes are the
// network benchmarks' Go servers (netservers.go).
package main

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
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

// ---------------------------------------------------------------------------------------
// Channel benchmarks: the programs of io.gmp4j.bench.ChanBodies, same sizes, same checks.
// ---------------------------------------------------------------------------------------

const (
	pingpongN   = 500000
	bufferedN   = 2000000
	bufferedCap = 1024
	selectN     = 200000
	sievePrimes = 2000
	sieveLast   = 17389
	ringSize    = 503
	ringHops    = 10000000
	ringHopsQ   = 1000000 // GMP4J_BENCH_QUICK=1 (--quick)
)

// pingpong: n round trips over two unbuffered channels; returns the echo side's count.
func pingpong(n int) int64 {
	ping, pong := make(chan int), make(chan int)
	echoed := make(chan int64)
	go func() {
		var count int64
		for i := 0; i < n; i++ {
			pong <- <-ping
			count++
		}
		echoed <- count
	}()
	for i := 0; i < n; i++ {
		ping <- 7
		if <-pong != 7 {
			fail("pingpong: a different ball came back")
		}
	}
	return <-echoed
}

// buffered: producers send n values (message i carries i&1023) through one channel of
// capacity cap; consumers receive n/consumers each; returns the consumers' sum.
func buffered(producers, consumers, n, cap int) int64 {
	ch := make(chan int, cap)
	sent := make(chan struct{}, producers)
	sums := make(chan int64, consumers)
	perConsumer := n / consumers
	for c := 0; c < consumers; c++ {
		go func() {
			var sum int64
			for i := 0; i < perConsumer; i++ {
				sum += int64(<-ch)
			}
			sums <- sum
		}()
	}
	perProducer := n / producers
	for p := 0; p < producers; p++ {
		from := p * perProducer
		go func() {
			for i := from; i < from+perProducer; i++ {
				ch <- i & 1023
			}
			sent <- struct{}{}
		}()
	}
	for p := 0; p < producers; p++ {
		<-sent
	}
	var sum int64
	for c := 0; c < consumers; c++ {
		sum += <-sums
	}
	return sum
}

func bufferedExpected(n int) int64 {
	full, rest := int64(n/1024), int64(n%1024)
	return full*(1023*1024/2) + rest*(rest-1)/2
}

// selectBench: two senders, n/2 values each on their own unbuffered channel; one receiver
// selecting over both, which checks that each case fired n/2 times; returns the sum.
func selectBench(n int) int64 {
	a, b := make(chan int), make(chan int)
	sent := make(chan struct{}, 2)
	half := n / 2
	sender := func(c chan<- int) {
		for i := 0; i < half; i++ {
			c <- i & 1023
		}
		sent <- struct{}{}
	}
	go sender(a)
	go sender(b)
	var sum int64
	fromA, fromB := 0, 0
	for i := 0; i < n; i++ {
		select {
		case v := <-a:
			fromA++
			sum += int64(v)
		case v := <-b:
			fromB++
			sum += int64(v)
		}
	}
	<-sent
	<-sent
	if fromA != half || fromB != half {
		fail(fmt.Sprintf("select: %d from a and %d from b, expected %d each", fromA, fromB, half))
	}
	return sum
}

// sieve: Go's concurrent prime sieve. The generator stops after last and sends the sentinel
// 0, which every filter forwards before it ends, so every goroutine ends; returns the sum of
// the first primes primes and checks that the last is last and only the sentinel follows.
func sieve(primes, last int) int64 {
	first := make(chan int)
	go func() {
		for i := 2; i <= last; i++ {
			first <- i
		}
		first <- 0
	}()
	ch := first
	var sum int64
	prime := 0
	for i := 0; i < primes; i++ {
		prime = <-ch
		if prime == 0 {
			fail(fmt.Sprintf("sieve: only %d primes up to %d", i, last))
		}
		sum += int64(prime)
		out := make(chan int)
		go filter(ch, out, prime)
		ch = out
	}
	if prime != last {
		fail(fmt.Sprintf("sieve: prime #%d is %d, expected %d", primes, prime, last))
	}
	if end := <-ch; end != 0 {
		fail(fmt.Sprintf("sieve: %d came after prime #%d", end, primes))
	}
	return sum
}

func filter(in <-chan int, out chan<- int, p int) {
	for {
		x := <-in
		if x == 0 {
			out <- x
			return
		}
		if x%p != 0 {
			out <- x
		}
	}
}

func sieveExpected(primes int) int64 {
	var sum int64
	found := 0
	for n := 2; found < primes; n++ {
		isPrime := true
		for d := 2; d*d <= n; d++ {
			if n%d == 0 {
				isPrime = false
				break
			}
		}
		if isPrime {
			sum += int64(n)
			found++
		}
	}
	return sum
}

// threadring: size goroutines (ids 1..size) in a ring of unbuffered channels pass a token
// worth hops, one less each hop; the one that receives 0 sends a stop token (-1) round the
// ring, waits for it to come back and reports its id.
func threadring(size, hops int) int64 {
	ring := make([]chan int, size)
	for k := range ring {
		ring[k] = make(chan int)
	}
	done := make(chan int64)
	for k := 0; k < size; k++ {
		id := int64(k + 1)
		in, out := ring[k], ring[(k+1)%size]
		go func() {
			for {
				t := <-in
				if t < 0 {
					out <- t
					return
				}
				if t == 0 {
					out <- -1
					<-in
					done <- id
					return
				}
				out <- t - 1
			}
		}()
	}
	ring[0] <- hops
	return <-done
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "gmp4jbench:", msg)
	os.Exit(1)
}

// chanBody runs a channel benchmark: (result, expected, operations: a sample is ns/op).
func chanBody(bench string) (int64, int64, int64, bool) {
	switch bench {
	case "pingpong":
		return pingpong(pingpongN), pingpongN, pingpongN, true
	case "buffered-1p1c":
		return buffered(1, 1, bufferedN, bufferedCap), bufferedExpected(bufferedN), bufferedN, true
	case "buffered-4p4c":
		return buffered(4, 4, bufferedN, bufferedCap), bufferedExpected(bufferedN), bufferedN, true
	case "select":
		return selectBench(selectN), 2 * bufferedExpected(selectN/2), selectN, true
	case "sieve":
		return sieve(sievePrimes, sieveLast), sieveExpected(sievePrimes), 1, true
	case "threadring":
		hops := ringHops
		if os.Getenv("GMP4J_BENCH_QUICK") == "1" {
			hops = ringHopsQ
		}
		return threadring(ringSize, hops), int64(hops%ringSize + 1), int64(hops), true
	}
	return 0, 0, 0, false
}

func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		fail("getrusage: " + err.Error())
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
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
	fmt.Fprintf(os.Stderr, "gmp4jbench: unknown benchmark %q (spawn, skynet, fib, pingpong, buffered-1p1c, "+
		"buffered-4p4c, select, sieve, threadring, hog)\n", bench)
	os.Exit(2)
	return 0, 0
}

// repPlan is the Java harness's Reps: at least warm warm-up repetitions lasting at least
// GMP4J_BENCH_MIN_WARMUP_MS, then at least meas measured ones lasting at least
// GMP4J_BENCH_MIN_MEASURE_MS (at most maxMeasured), so both languages get the same plan.
type repPlan struct {
	warm, meas             int
	minWarmup, minMeasure  time.Duration
	started, measuring     bool
	phaseStart             time.Time
	warmDone, measuredDone int
}

const maxMeasured = 500

func newRepPlan(warm, meas int) *repPlan {
	return &repPlan{warm: warm, meas: meas,
		minWarmup:  envMillis("GMP4J_BENCH_MIN_WARMUP_MS"),
		minMeasure: envMillis("GMP4J_BENCH_MIN_MEASURE_MS")}
}

func envMillis(name string) time.Duration {
	v, err := strconv.Atoi(os.Getenv(name))
	if err != nil || v < 0 {
		return 0
	}
	return time.Duration(v) * time.Millisecond
}

// next reports whether another repetition runs; call it once before each.
func (p *repPlan) next() bool {
	now := time.Now()
	if !p.started {
		p.started = true
		p.phaseStart = now
	}
	if !p.measuring {
		if p.warmDone < p.warm || now.Sub(p.phaseStart) < p.minWarmup {
			p.warmDone++
			return true
		}
		p.measuring = true
		p.phaseStart = now
	}
	if p.measuredDone < p.meas || (p.measuredDone < maxMeasured && now.Sub(p.phaseStart) < p.minMeasure) {
		p.measuredDone++
		return true
	}
	return false
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
	if len(os.Args) == 2 && os.Args[1] == "echo-server" {
		serve(echo)
		return
	}
	if len(os.Args) == 2 && os.Args[1] == "chat-server" {
		chatServer()
		return
	}
	if len(os.Args) == 3 && os.Args[1] == "proxy-server" {
		serve(proxyTo("127.0.0.1:" + os.Args[2]))
		return
	}
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gmp4jbench <bench> <warmup+measured> | echo-server | chat-server | proxy-server <upstream-port>")
		os.Exit(2)
	}
	bench := os.Args[1]
	warm, meas, err := parseReps(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "gmp4jbench:", err)
		os.Exit(2)
	}
	if bench == "hog" {
		runHog(warm, meas)
		return
	}
	samples := make([]float64, 0, meas)
	cpu := make([]float64, 0, meas)
	unit := "ms"
	plan := newRepPlan(warm, meas)
	for plan.next() {
		runtime.GC()
		c0 := cpuNanos()
		t0 := time.Now()
		got, want, ops, isChan := chanBody(bench)
		if !isChan {
			got, want = body(bench)
		}
		elapsed := time.Since(t0)
		cpuUsed := cpuNanos() - c0
		if got != want {
			fmt.Fprintf(os.Stderr, "gmp4jbench: %s: WRONG RESULT %d, expected %d\n", bench, got, want)
			os.Exit(1)
		}
		if plan.measuring {
			if isChan && bench != "sieve" {
				unit = "ns/op"
				samples = append(samples, float64(elapsed.Nanoseconds())/float64(ops))
				cpu = append(cpu, float64(cpuUsed)/float64(ops))
			} else {
				samples = append(samples, float64(elapsed.Nanoseconds())/1e6)
			}
		}
	}
	printResult(bench, samples, unit)
	if bench == "pingpong" {
		printResult("pingpong-cpu", cpu, "ns/op")
	}
}

func printResult(bench string, samples []float64, unit string) {
	strs := make([]string, len(samples))
	for i, v := range samples {
		strs[i] = strconv.FormatFloat(v, 'f', 3, 64)
	}
	fmt.Printf("@result bench=%s impl=go procs=%d value=%s unit=%s samples=%s\n",
		bench, runtime.GOMAXPROCS(0), strconv.FormatFloat(median(samples), 'f', 3, 64), unit, strings.Join(strs, ","))
}
