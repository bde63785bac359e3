package io.gmp4j.micrometer;

import io.gmp4j.GoRuntime;
import io.gmp4j.Metrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.util.concurrent.TimeUnit;

/**
 * A Micrometer {@link MeterBinder} that publishes a gmp4j runtime's {@link Metrics} (Go 1.26's
 * {@code /sched/} names): each Go name {@code /a/b:unit} becomes the meter {@code gmp4j.a.b}
 * with base unit {@code unit}, Go's description, and the binder's tags.
 *
 * <pre>{@code
 * new GoRuntimeMetrics(rt, Tags.of("runtime", "workers")).bindTo(registry);
 * }</pre>
 *
 * <ul>
 *   <li>Gauges: {@code gmp4j.sched.goroutines}, {@code gmp4j.sched.goroutines.running},
 *       {@code .runnable}, {@code .waiting}, {@code .not-in-go} (the four state gauges only when
 *       the runtime keeps its goroutine registry; each reading walks the live goroutines once),
 *       {@code gmp4j.sched.gomaxprocs}, {@code gmp4j.sched.threads.total}.</li>
 *   <li>A function counter: {@code gmp4j.sched.goroutines-created}.</li>
 *   <li>The latency histogram {@code /sched/latencies:seconds}, which the runtime keeps itself
 *       (Micrometer's own timers take one sample at a time; this one is already bucketed and
 *       sampled one transition in 64 per goroutine, where Go samples one in 8): a function timer
 *       {@code gmp4j.sched.latencies} (the sampled count and their total time, so the mean),
 *       and one function counter per power of two from 256 ns to about 17 s,
 *       {@code gmp4j.sched.latencies.bucket} tagged {@code le} with the boundary in seconds:
 *       the samples below it, cumulative as Prometheus' {@code le} buckets (Go's bucket
 *       boundaries, merged four to one).</li>
 * </ul>
 *
 * <p>Every meter reads the runtime when it is read. An open runtime is reachable from its own
 * threads; the gauges hold it strongly, the function counters and the timer weakly (Micrometer's
 * rule), so after {@link GoRuntime#close()} remove the meters or keep the runtime referenced.
 */
public final class GoRuntimeMetrics implements MeterBinder {
    /** The powers of two, in nanoseconds, that get an {@code le} bucket counter: 2^8 .. 2^34. */
    static final int FIRST_POWER = 8;
    static final int LAST_POWER = 34;

    private final GoRuntime runtime;
    private final Iterable<Tag> tags;

    /** Publishes {@code runtime}'s metrics with no extra tag. */
    public GoRuntimeMetrics(GoRuntime runtime) {
        this(runtime, Tags.empty());
    }

    /** Publishes {@code runtime}'s metrics with {@code tags} on every meter (e.g. the runtime's name). */
    public GoRuntimeMetrics(GoRuntime runtime, Iterable<Tag> tags) {
        if (runtime == null || tags == null) {
            throw new NullPointerException("GoRuntimeMetrics: null runtime or tags");
        }
        this.runtime = runtime;
        this.tags = tags;
    }

    /** The Micrometer name of Go's metric {@code goName}: {@code /sched/goroutines:goroutines} is {@code gmp4j.sched.goroutines}. */
    public static String meterName(String goName) {
        int colon = goName.indexOf(':');
        return "gmp4j" + goName.substring(0, colon).replace('/', '.');
    }

    private static String unit(String goName) {
        return goName.substring(goName.indexOf(':') + 1);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        GoRuntime rt = runtime;
        Metrics all = rt.metrics();
        for (String name : Metrics.all()) {
            if (Metrics.isHistogram(name) || !all.has(name)) {
                continue;
            }
            if (Metrics.cumulative(name)) {
                FunctionCounter.builder(meterName(name), rt, r -> r.metrics(name).value(name))
                        .description(Metrics.description(name)).baseUnit(unit(name)).tags(tags)
                        .register(registry);
            } else {
                Gauge.builder(meterName(name), rt, r -> r.metrics(name).value(name)).strongReference(true)
                        .description(Metrics.description(name)).baseUnit(unit(name)).tags(tags)
                        .register(registry);
            }
        }
        String lat = Metrics.LATENCIES;
        FunctionTimer.builder(meterName(lat), rt,
                        r -> r.metrics(lat).histogram(lat).count(),
                        r -> r.metrics(lat).histogram(lat).sumSeconds(), TimeUnit.SECONDS)
                .description(Metrics.description(lat)).tags(tags).register(registry);
        double[] b = all.histogram(lat).buckets();
        for (int p = FIRST_POWER; p <= LAST_POWER; p++) {
            double le = (1L << p) / 1e9;
            int upTo = indexOf(b, le);
            FunctionCounter.builder(meterName(lat) + ".bucket", rt, r -> below(r.metrics(lat).histogram(lat), upTo))
                    .description("Sampled scheduling latencies below le seconds (cumulative).")
                    .tags(tags).tag("le", Double.toString(le)).register(registry);
        }
    }

    /** The index of boundary {@code le} in Go's boundaries (it is one of them: a power of two). */
    private static int indexOf(double[] b, double le) {
        for (int i = 0; i < b.length; i++) {
            if (b[i] == le) {
                return i;
            }
        }
        throw new IllegalStateException("no latency bucket boundary at " + le + " s");
    }

    /** The samples in the buckets under boundary {@code upTo}: counts 0 .. upTo-1. */
    static long below(Metrics.Histogram h, int upTo) {
        long[] c = h.counts();
        long n = 0;
        for (int i = 0; i < upTo; i++) {
            n += c[i];
        }
        return n;
    }
}
