package io.gmp4j.examples.pipeline;

import io.gmp4j.Go;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.RecvChan;
import io.gmp4j.chan.Select;
import io.gmp4j.context.Context;
import io.gmp4j.sync.WaitGroup;

/**
 * Go's "pipelines and cancellation" (go.dev/blog/pipelines), stage for stage: {@code gen}
 * emits numbers, {@code sq} squares them, {@code merge} fans several channels into one. Every
 * stage stops when its context is cancelled, so a consumer that stops early leaks nothing.
 */
public final class Squares {
    private Squares() {
    }

    /** {@code func gen(ctx, nums ...int) <-chan int}: sends 1..n, then closes. */
    public static RecvChan<Integer> gen(Context ctx, int n) {
        Chan<Integer> out = new Chan<>();
        Go.go(() -> {
            try {
                Select s = new Select();
                for (int i = 1; i <= n; i++) {
                    s.reset();
                    s.send(out, i);                           // case out <- n:
                    int done = s.recv(ctx.done());            // case <-ctx.Done(): return
                    if (s.select() == done) {
                        return;
                    }
                }
            } finally {
                out.close();                                  // defer close(out)
            }
        });
        return out;
    }

    /** {@code func sq(ctx, in <-chan int) <-chan int}: squares what it receives. */
    public static RecvChan<Long> sq(Context ctx, RecvChan<Integer> in) {
        Chan<Long> out = new Chan<>();
        Go.go(() -> {
            try {
                Select s = new Select();
                for (int n : in) {                            // for n := range in
                    s.reset();
                    s.send(out, (long) n * n);
                    int done = s.recv(ctx.done());
                    if (s.select() == done) {
                        return;
                    }
                }
            } finally {
                out.close();
            }
        });
        return out;
    }

    /** {@code func merge(ctx, cs ...<-chan int) <-chan int}: fan-in with a WaitGroup closer. */
    @SafeVarargs
    public static <T> RecvChan<T> merge(Context ctx, RecvChan<T>... cs) {
        Chan<T> out = new Chan<>();
        WaitGroup wg = new WaitGroup();
        for (RecvChan<T> c : cs) {
            wg.go(() -> {                                     // wg.Add(1); go output(c)
                Select s = new Select();
                for (T v : c) {
                    s.reset();
                    s.send(out, v);
                    int done = s.recv(ctx.done());
                    if (s.select() == done) {
                        return;
                    }
                }
            });
        }
        Go.go(() -> {                                         // go func() { wg.Wait(); close(out) }()
            wg.await();
            out.close();
        });
        return out;
    }

    /**
     * The whole pipeline: squares of 1..n computed by {@code workers} {@code sq} stages fed
     * from one generator, merged, and summed. Must run in a goroutine.
     */
    public static long sumOfSquares(int n, int workers) {
        var c = Context.withCancel(Context.background());
        try (c) {
            RecvChan<Integer> in = gen(c.ctx(), n);
            @SuppressWarnings("unchecked")
            RecvChan<Long>[] stages = new RecvChan[workers];
            for (int w = 0; w < workers; w++) {
                stages[w] = sq(c.ctx(), in);                  // fan-out: workers read one channel
            }
            long sum = 0;
            for (long v : merge(c.ctx(), stages)) {            // fan-in
                sum += v;
            }
            return sum;
        }
    }

    /**
     * Takes only the first {@code take} results of an endless-enough pipeline, then cancels: the
     * generator, every stage and every merge goroutine return. Returns the values taken.
     */
    public static long[] firstThenCancel(int take, int workers) {
        var c = Context.withCancel(Context.background());
        long[] got = new long[take];
        try (c) {                                             // defer cancel()
            RecvChan<Integer> in = gen(c.ctx(), Integer.MAX_VALUE);
            @SuppressWarnings("unchecked")
            RecvChan<Long>[] stages = new RecvChan[workers];
            for (int w = 0; w < workers; w++) {
                stages[w] = sq(c.ctx(), in);
            }
            RecvChan<Long> out = merge(c.ctx(), stages);
            for (int i = 0; i < take; i++) {
                got[i] = out.recv();
            }
        }
        return got;
    }
}
