package agenttest;

import io.gmp4j.Go;
import io.gmp4j.GoRuntime;
import io.gmp4j.runtime.LoopPreempt;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * A child JVM, run with the agent and {@code -Dgmp4j.preempthandoff=false} at procs 1, whose
 * instrumented loops meet a preempt request where a goroutine cannot yield or must keep a lock.
 * {@code native}: the loop runs in libc's {@code qsort} comparator (an FFM upcall: a native
 * frame pins the goroutine), spinning until a back-edge yield was refused; then the sort must
 * be right, and after the native frame is gone the same goroutine must be preempted normally.
 * {@code synchronized}: the loop runs holding a monitor; the goroutine is preempted there
 * (JDK 24+ unmounts a virtual thread holding a monitor), the other goroutine must see the lock
 * held and block on it, and get it only after the spinner left the block. Prints {@code ok}
 * and exits 0, or prints what broke and exits 1.
 */
public final class PinnedChild {
    static volatile boolean otherRan;
    static volatile boolean inside;
    static volatile boolean spinning;
    static final Object LOCK = new Object();
    /** Guarded by LOCK: the spinner sets both, the other goroutine reads them under the lock. */
    static long entered;
    static long left;

    private PinnedChild() {
    }

    public static void main(String[] argv) throws Throwable {
        String[] args = System.getProperty("agenttest.args", "").split(",");
        GoRuntime rt = GoRuntime.builder().maxProcs(1).build();
        String[] failure = new String[1];
        switch (args[0]) {
            case "native" -> rt.main(() -> failure[0] = nativeCase());
            case "synchronized" -> rt.main(() -> failure[0] = synchronizedCase());
            default -> throw new IllegalArgumentException(args[0]);
        }
        if (failure[0] != null) {
            System.out.println("broken: " + failure[0]);
            System.exit(1);
        }
        System.out.println("ok pinnedYields>=1=" + (LoopPreempt.pinnedYields() >= 1) + " loopYields>=1="
                + (LoopPreempt.loopYields() >= 1));
        System.exit(0);
    }

    /** Compares two ints; the first call spins until a back-edge yield was refused (pinned). */
    static int compare(MemorySegment a, MemorySegment b) {
        if (LoopPreempt.pinnedYields() == 0) {
            long n = 0;
            while (LoopPreempt.pinnedYields() == 0) {
                n++;
            }
            if (n == 0) {
                throw new AssertionError();
            }
        }
        return Integer.compare(a.get(ValueLayout.JAVA_INT, 0), b.get(ValueLayout.JAVA_INT, 0));
    }

    private static String nativeCase() {
        Go.go(() -> {
            while (!spinning) {
                Go.gosched(); // ran first (main was preempted at go): wait for the second loop
            }
            otherRan = true;
        });
        int[] values = {5, 3, 9, 1, 7, 2, 8, 6, 4, 0};
        try (Arena arena = Arena.ofConfined()) {
            Linker linker = Linker.nativeLinker();
            MethodHandle qsort = linker.downcallHandle(linker.defaultLookup().find("qsort").orElseThrow(),
                    FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                            ValueLayout.ADDRESS));
            MethodHandle cmp = MethodHandles.lookup().findStatic(PinnedChild.class, "compare",
                    MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class));
            FunctionDescriptor cmpDesc = FunctionDescriptor.of(ValueLayout.JAVA_INT,
                    ValueLayout.ADDRESS.withTargetLayout(ValueLayout.JAVA_INT),
                    ValueLayout.ADDRESS.withTargetLayout(ValueLayout.JAVA_INT));
            MemorySegment stub = linker.upcallStub(cmp, cmpDesc, arena);
            MemorySegment arr = arena.allocateFrom(ValueLayout.JAVA_INT, values);
            qsort.invokeExact(arr, (long) values.length, 4L, stub);
            int[] sorted = arr.toArray(ValueLayout.JAVA_INT);
            for (int i = 0; i < sorted.length; i++) {
                if (sorted[i] != i) {
                    return "qsort's result is " + java.util.Arrays.toString(sorted);
                }
            }
        } catch (Throwable t) {
            return "the native call threw " + t;
        }
        if (LoopPreempt.pinnedYields() == 0) {
            return "no refused yield was counted";
        }
        // Out of the native frame: the request still stands, and a loop here must yield.
        spinning = true;
        long n = 0;
        while (!otherRan) {
            n++;
        }
        return n >= 0 && LoopPreempt.loopYields() >= 1 ? null : "the other goroutine ran without a loop yield";
    }

    private static String synchronizedCase() {
        String[] seen = new String[1];
        boolean[] otherDone = new boolean[1];
        Go.go(() -> {
            while (!inside) {
                Go.gosched(); // ran first (main was preempted at go): wait until it holds LOCK
            }
            boolean wasInside = inside; // this goroutine runs again only once the spinner gave way
            synchronized (LOCK) {
                // The spinner left the block before this one could enter: both counts match.
                seen[0] = "insideWhenRun=" + wasInside + " entered=" + entered + " left=" + left
                        + " insideNow=" + inside;
            }
            otherDone[0] = true;
            otherRan = true;
        });
        long n = 0;
        synchronized (LOCK) {
            entered++;
            inside = true;
            while (!otherRan && LoopPreempt.loopYields() == 0) {
                n++; // the other goroutine cannot finish while this one holds LOCK
            }
            inside = false;
            left++;
        }
        while (!otherRan) {
            n++;
        }
        String want = "insideWhenRun=true entered=1 left=1 insideNow=false";
        return otherDone[0] && want.equals(seen[0]) && n > 0 ? null : "the other goroutine saw " + seen[0];
    }
}
