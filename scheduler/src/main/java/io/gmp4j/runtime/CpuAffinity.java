package io.gmp4j.runtime;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Pins carrier threads to CPUs: Linux's {@code sched_getaffinity}/{@code sched_setaffinity}
 * through the FFM API, for the opt-in "pin carriers" mode (each M runs on the CPU of the P it
 * holds). Go does not pin; this mode exists because on a small VM a woken M is often placed on
 * its waker's CPU while another CPU idles, so two Ps share one core until the kernel's balancer
 * moves one (benchmarks/PERFORMANCE-LOG.md has what it measured).
 *
 * <p>Only the calling thread's mask is read or set (thread id 0), so an M pins itself.
 */
public final class CpuAffinity {
    /** Mask bytes handed to the kernel: 1024 CPUs, glibc's {@code cpu_set_t}. */
    private static final long MASK_BYTES = 128;
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private static volatile CpuAffinity instance;

    private final MethodHandle getaffinity;
    private final MethodHandle setaffinity;

    private CpuAffinity(MethodHandle get, MethodHandle set) {
        this.getaffinity = get;
        this.setaffinity = set;
    }

    /**
     * The pinning calls of this platform.
     *
     * @throws UnsupportedOperationException off Linux, or where libc lacks the calls
     * @throws IllegalStateException when the JVM lacks {@code --enable-native-access=ALL-UNNAMED}
     */
    public static CpuAffinity load() {
        CpuAffinity a = instance;
        if (a != null) {
            return a;
        }
        String os = System.getProperty("os.name", "?");
        if (!os.toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            throw new UnsupportedOperationException("pinning carriers to CPUs needs Linux's sched_setaffinity; "
                    + "this is " + os + ": leave pinCarriers off");
        }
        if (!CpuAffinity.class.getModule().isNativeAccessEnabled()) {
            throw new IllegalStateException("pinning carriers to CPUs calls sched_setaffinity through the FFM API "
                    + "and needs the JVM flag --enable-native-access=ALL-UNNAMED: add it to the java command line, "
                    + "surefire's argLine, exec-maven-plugin's arguments or the IDE's VM options, or put "
                    + "Enable-Native-Access: ALL-UNNAMED in an executable jar's manifest");
        }
        Linker linker = Linker.nativeLinker();
        FunctionDescriptor sig = FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS);
        Linker.Option errno = Linker.Option.captureCallState("errno");
        MethodHandle get = linker.downcallHandle(find(linker, "sched_getaffinity"), sig, errno);
        MethodHandle set = linker.downcallHandle(find(linker, "sched_setaffinity"), sig, errno);
        a = new CpuAffinity(get, set);
        instance = a;
        return a;
    }

    private static MemorySegment find(Linker linker, String name) {
        return linker.defaultLookup().find(name).orElseThrow(() -> new UnsupportedOperationException(
                "pinning carriers to CPUs needs " + name + ", which this libc does not export"));
    }

    /**
     * The CPUs the process may run on: its main thread's affinity mask ({@code taskset}, a cgroup
     * cpuset), which a runtime built inside a pinned goroutine does not narrow; the calling
     * thread's mask when the main thread's cannot be read (it has exited), ascending.
     */
    public int[] processCpus() {
        int[] cpus = cpusOf((int) ProcessHandle.current().pid());
        return cpus != null ? cpus : allowedCpus();
    }

    /** The CPUs the calling thread may run on, ascending. */
    public int[] allowedCpus() {
        int[] cpus = cpusOf(0);
        if (cpus == null) {
            throw new IllegalStateException("sched_getaffinity of the calling thread failed");
        }
        return cpus;
    }

    /** The affinity of thread {@code tid} (0: the caller), or null when the kernel refuses. */
    private int[] cpusOf(int tid) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(MASK_BYTES, 8);
            MemorySegment state = arena.allocate(CALL_STATE);
            int r = (int) getaffinity.invokeExact(state, tid, MASK_BYTES, mask);
            if (r < 0) {
                return null;
            }
            int[] cpus = new int[(int) MASK_BYTES * 8];
            int n = 0;
            for (int word = 0; word < MASK_BYTES / 8; word++) {
                long bits = mask.getAtIndex(ValueLayout.JAVA_LONG, word);
                while (bits != 0) {
                    cpus[n++] = word * 64 + Long.numberOfTrailingZeros(bits);
                    bits &= bits - 1;
                }
            }
            return n == 0 ? null : Arrays.copyOf(cpus, n);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("sched_getaffinity failed", t);
        }
    }

    /**
     * Restricts the calling thread to {@code cpus}.
     *
     * @return 0, or the errno the kernel gave (EINVAL when none of the CPUs is online or allowed)
     */
    public int pinCurrentThread(int... cpus) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(MASK_BYTES, 8);
            for (int cpu : cpus) {
                if (cpu < 0 || cpu >= MASK_BYTES * 8) {
                    throw new IllegalArgumentException("CPU " + cpu + " out of range 0.." + (MASK_BYTES * 8 - 1));
                }
                long word = mask.getAtIndex(ValueLayout.JAVA_LONG, cpu >>> 6);
                mask.setAtIndex(ValueLayout.JAVA_LONG, cpu >>> 6, word | 1L << (cpu & 63));
            }
            MemorySegment state = arena.allocate(CALL_STATE);
            int r = (int) setaffinity.invokeExact(state, 0, MASK_BYTES, mask);
            return r == 0 ? 0 : (int) ERRNO.get(state, 0L);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("sched_setaffinity failed", t);
        }
    }
}
