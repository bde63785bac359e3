package io.gmp4j.runtime;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Constructor;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;

/**
 * The two JDK seams the runtime rests on, reached once by reflection (see DESIGN.md at the
 * repository root): {@code Thread.currentCarrierThread()} (how {@code execute} finds the current M and P) and the
 * package-private {@code ThreadBuilders.VirtualThreadBuilder(Executor)} constructor (how
 * goroutines get our scheduler). Both need {@value #FLAG}; without it the first use fails with
 * an error that names the flag.
 */
final class Carrier {
    static final String FLAG = "--add-opens java.base/java.lang=ALL-UNNAMED";

    private static final MethodHandle CURRENT_CARRIER;
    /** Thread.uncaughtExceptionHandler: where a goroutine's thread carries its G (see G.current). */
    private static final VarHandle THREAD_UEH;
    private static final Constructor<?> VT_BUILDER;
    /** VirtualThread.state, and the values of it that mean "mounted, on its way to park". */
    private static final VarHandle VT_STATE;
    private static final int VT_RUNNING;
    private static final int VT_PARKING;
    private static final int VT_TIMED_PARKING;
    private static final Throwable FAILURE;

    static {
        MethodHandle mh = null;
        Constructor<?> ctor = null;
        VarHandle ueh = null;
        VarHandle vtState = null;
        int running = -1;
        int parking = -1;
        int timedParking = -1;
        Throwable failure = null;
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(Thread.class, MethodHandles.lookup());
            mh = lookup.findStatic(Thread.class, "currentCarrierThread", MethodType.methodType(Thread.class));
            Class<?> builder = Class.forName("java.lang.ThreadBuilders$VirtualThreadBuilder");
            ctor = builder.getDeclaredConstructor(Executor.class);
            ctor.setAccessible(true);
            ueh = lookup.findVarHandle(Thread.class, "uncaughtExceptionHandler", Thread.UncaughtExceptionHandler.class);
            Class<?> vt = Class.forName("java.lang.VirtualThread");
            MethodHandles.Lookup vtLookup = MethodHandles.privateLookupIn(vt, MethodHandles.lookup());
            vtState = vtLookup.findVarHandle(vt, "state", int.class);
            running = (int) vtLookup.findStaticVarHandle(vt, "RUNNING", int.class).get();
            parking = (int) vtLookup.findStaticVarHandle(vt, "PARKING", int.class).get();
            timedParking = (int) vtLookup.findStaticVarHandle(vt, "TIMED_PARKING", int.class).get();
        } catch (Throwable t) {
            failure = t;
        }
        VT_STATE = vtState;
        VT_RUNNING = running;
        VT_PARKING = parking;
        VT_TIMED_PARKING = timedParking;
        CURRENT_CARRIER = mh;
        VT_BUILDER = ctor;
        THREAD_UEH = ueh;
        FAILURE = failure;
    }

    private Carrier() {
    }

    /** Fails with a clear message when the JVM was started without the flag. */
    static void check() {
        if (FAILURE != null) {
            throw new IllegalStateException("gmp4j needs the JVM flag " + FLAG + " to plug its scheduler "
                    + "into virtual threads (it reaches Thread.currentCarrierThread and the "
                    + "VirtualThreadBuilder(Executor) constructor). Add it where your program's JVM "
                    + "starts: on the java command line (java " + FLAG + " -cp ... Main), in "
                    + "maven-surefire-plugin's <argLine>, in exec-maven-plugin's arguments, in the "
                    + "IDE run configuration's VM options, or, for an executable jar, as the "
                    + "manifest attribute \"Add-Opens: java.base/java.lang\" (then java -jar needs "
                    + "no flag). Cause: " + FAILURE, FAILURE);
        }
    }

    /** The platform thread carrying the caller: itself for a platform thread. */
    static Thread currentCarrier() {
        try {
            return (Thread) CURRENT_CARRIER.invokeExact();
        } catch (Throwable t) {
            check();
            throw new InternalError(t);
        }
    }

    /**
     * The G riding on {@code t} as its uncaught-exception handler, or null. A plain field read:
     * {@code Thread.getUncaughtExceptionHandler()} would also check the thread state.
     */
    static G gOf(Thread t) {
        return THREAD_UEH.get(t) instanceof G g ? g : null;
    }

    /** Binds {@code g} to its not yet started thread; start() publishes it to the thread. */
    static void bindG(Thread t, G g) {
        THREAD_UEH.set(t, g);
    }

    /**
     * True while virtual thread {@code vt} is mounted and not yet parked: running, or in the
     * middle of parking (the continuation is yielding). An unpark in that window does not move
     * it: the JDK sets a permit and the thread resubmits itself from its own carrier.
     */
    static boolean notYetParked(Thread vt) {
        int s = (int) VT_STATE.getVolatile(vt);
        return s == VT_RUNNING || s == VT_PARKING || s == VT_TIMED_PARKING;
    }

    /** The M carrying the caller, or null when the caller runs on a thread that is not an M. */
    static M currentM() {
        return currentCarrier() instanceof M m ? m : null;
    }

    /** A virtual-thread factory whose threads are scheduled by {@code scheduler}. */
    static ThreadFactory virtualThreadFactory(Executor scheduler) {
        check();
        try {
            Thread.Builder.OfVirtual b = (Thread.Builder.OfVirtual) VT_BUILDER.newInstance(scheduler);
            return b.factory();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("gmp4j: cannot create a virtual thread builder with a custom scheduler", e);
        }
    }
}
