package io.gmp4j;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.List;

/**
 * Go's {@code runtime.MemStats}, the fields the JVM can report honestly, read from its own
 * management beans ({@link java.lang.management.MemoryMXBean} and the
 * {@link GarbageCollectorMXBean}s). Go's allocation counts ({@code Mallocs}, {@code Frees},
 * {@code HeapObjects}) have no JVM counterpart and are left out. Obtain one with
 * {@link Go#readMemStats()}; {@link Go#gc()} runs a collection first when a test needs the
 * live heap. The values are process-wide: every runtime of the JVM shares one heap.
 *
 * @param heapAlloc    Go's {@code HeapAlloc}: bytes of heap in use now (the heap's {@code used}),
 *                     live objects plus garbage not yet collected
 * @param heapSys      Go's {@code HeapSys}: bytes of heap the JVM has committed from the OS
 *                     (the heap's {@code committed})
 * @param totalAlloc   Go's {@code TotalAlloc}: bytes allocated on the heap since the JVM
 *                     started, an approximation ({@code com.sun.management.ThreadMXBean
 *                     #getTotalThreadAllocatedBytes}); -1 where the JVM does not measure it
 * @param numGC        Go's {@code NumGC}: collections completed, summed over the collectors
 *                     (a young and an old collector count separately)
 * @param pauseTotalNs Go's {@code PauseTotalNs}, as the collectors' accumulated collection
 *                     time in nanoseconds (millisecond resolution). For stop-the-world
 *                     collectors it is their pause time; for concurrent ones (G1's concurrent
 *                     cycle, ZGC, Shenandoah) it includes time the application kept running,
 *                     so it is an upper bound of the pauses
 */
public record MemStats(long heapAlloc, long heapSys, long totalAlloc, long numGC, long pauseTotalNs) {
    /** How long {@link #gc()} waits for the JVM to report the collection it asked for. */
    private static final long GC_WAIT_NANOS = 10_000_000_000L;

    /** Go's {@code runtime.ReadMemStats}: reads the JVM's figures now. */
    public static MemStats read() {
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        long count = 0;
        long millis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount()); // -1: not reported by this collector
            millis += Math.max(0, gc.getCollectionTime());
        }
        return new MemStats(heap.getUsed(), heap.getCommitted(), totalAllocated(), count, millis * 1_000_000);
    }

    private static long totalAllocated() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
                && t.isThreadAllocatedMemorySupported() && t.isThreadAllocatedMemoryEnabled()) {
            return t.getTotalThreadAllocatedBytes();
        }
        return -1;
    }

    /**
     * Go's {@code runtime.GC()}: asks the JVM for a collection ({@link System#gc()}) and blocks
     * the caller until the collectors' counts show a completed one, as Go's {@code GC} blocks
     * until its cycle is over. Bounded: it gives up waiting after 10 s, and does not wait at
     * all when {@code -XX:+DisableExplicitGC} turns {@code System.gc()} into a no-op. From a
     * goroutine it runs as a {@link Syscall#blockingLong syscall}: its P goes to another M while
     * the collection runs.
     */
    public static void gc() {
        Syscall.blockingLong(() -> {
            long before = collections();
            System.gc();
            if (explicitGcDisabled()) {
                return null;
            }
            long deadline = System.nanoTime() + GC_WAIT_NANOS;
            // A stop-the-world collector has counted the cycle when System.gc() returns; a
            // concurrent one (-XX:+ExplicitGCInvokesConcurrent, ZGC) may finish later.
            while (collections() <= before && System.nanoTime() - deadline < 0) {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // stop waiting, keep the interrupt
                    return null;
                }
            }
            return null;
        });
    }

    private static long collections() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    private static boolean explicitGcDisabled() {
        List<String> args = ManagementFactory.getRuntimeMXBean().getInputArguments();
        return args.lastIndexOf("-XX:+DisableExplicitGC") > args.lastIndexOf("-XX:-DisableExplicitGC");
    }
}
