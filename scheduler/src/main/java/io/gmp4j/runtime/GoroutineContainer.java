package io.gmp4j.runtime;

import java.lang.classfile.ClassFile;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The JDK thread container a runtime starts its goroutines in: one per runtime, in place of the
 * JDK's root container that {@code Thread.start()} uses.
 *
 * <p>Why. The root container counts every virtual thread it starts and ends: with
 * {@code -Djdk.trackAllThreads=false} in one {@code LongAdder} whose first cell every new
 * virtual thread hits on exit (a fresh thread has no probe yet), and by default in one
 * {@code ConcurrentHashMap} set. Both are shared by every carrier, so at procs 2 each goroutine
 * pays a cache-line transfer on start and end. This container counts nothing: the runtime
 * already knows its goroutines (its per-M registry and counters). Measured in one process,
 * alternating the two containers rep by rep: skynet 4-5% faster at procs 1 and 2, spawn 2%,
 * fib 1-2%.
 *
 * <p>What it shows. It is registered with the JDK's container registry under the runtime's
 * name, and lists the runtime's live goroutines (from the goroutine registry), so
 * {@code jcmd <pid> Thread.dump_to_file -format=json} and
 * {@code HotSpotDiagnosticMXBean.dumpThreads} show the goroutines grouped by runtime, whether or
 * not the JDK tracks all threads.
 *
 * <p>How. {@code jdk.internal.vm.ThreadContainer} is not exported; with the
 * {@code --add-opens java.base/java.lang} that gmp4j needs anyway, the runtime exports that
 * package to itself ({@code Module.implAddExports}), generates the small subclass with the
 * class-file API and starts each thread through the package-private
 * {@code Thread.start(ThreadContainer)}. Should any of these seams move in a later JDK, the
 * runtime falls back to {@code Thread.start()} and the root container (saying so once on
 * stderr), losing only the speed and the grouping.
 */
final class GoroutineContainer {
    private static final String SUPER = "jdk.internal.vm.ThreadContainer";
    /** (String name, Supplier threads) -> container, typed as Object. */
    private static final MethodHandle NEW;
    /** (Thread, container) -> Thread.start(container). */
    private static final MethodHandle START;
    /** (container) -> registry key; (key) -> void. */
    private static final MethodHandle REGISTER;
    private static final MethodHandle DEREGISTER;
    private static final Throwable UNAVAILABLE;

    static {
        MethodHandle ctor = null;
        MethodHandle start = null;
        MethodHandle register = null;
        MethodHandle deregister = null;
        Throwable failure = null;
        try {
            Module base = Object.class.getModule();
            MethodHandles.Lookup moduleLookup = MethodHandles.privateLookupIn(Module.class, MethodHandles.lookup());
            MethodHandle addExports = moduleLookup.findVirtual(Module.class, "implAddExports",
                    MethodType.methodType(void.class, String.class, Module.class));
            addExports.invoke(base, "jdk.internal.vm", GoroutineContainer.class.getModule());

            Class<?> superclass = Class.forName(SUPER);
            Class<?> impl = MethodHandles.lookup().defineClass(generate());
            ctor = MethodHandles.lookup().findConstructor(impl, MethodType.methodType(void.class, String.class, Supplier.class))
                    .asType(MethodType.methodType(Object.class, String.class, Supplier.class));
            start = MethodHandles.privateLookupIn(Thread.class, MethodHandles.lookup())
                    .findVirtual(Thread.class, "start", MethodType.methodType(void.class, superclass))
                    .asType(MethodType.methodType(void.class, Thread.class, Object.class));
            Class<?> registry = Class.forName("jdk.internal.vm.ThreadContainers");
            register = MethodHandles.lookup().findStatic(registry, "registerContainer",
                    MethodType.methodType(Object.class, superclass)).asType(MethodType.methodType(Object.class, Object.class));
            deregister = MethodHandles.lookup().findStatic(registry, "deregisterContainer",
                    MethodType.methodType(void.class, Object.class));
        } catch (Throwable t) {
            failure = t;
        }
        NEW = ctor;
        START = start;
        REGISTER = register;
        DEREGISTER = deregister;
        UNAVAILABLE = failure;
    }

    private final Object container;
    private final Object key;

    private GoroutineContainer(Object container, Object key) {
        this.container = container;
        this.key = key;
    }

    /**
     * A registered container named {@code name} that lists {@code threads}' live goroutine
     * threads. When this JDK lacks one of the seams (said once on stderr), one whose
     * {@link #start} is plain {@code Thread.start()}.
     */
    static GoroutineContainer create(String name, Supplier<Stream<Thread>> threads) {
        Throwable why = UNAVAILABLE;
        if (why == null) {
            try {
                Object c = (Object) NEW.invokeExact(name, (Supplier<?>) threads);
                Object key = (Object) REGISTER.invokeExact(c);
                return new GoroutineContainer(c, key);
            } catch (Throwable t) {
                why = t;
            }
        }
        if (WARNED.compareAndSet(false, true)) {
            System.err.println("gmp4j: goroutines start in the JDK's root thread container on this JDK ("
                    + why + "): they run as well, a little slower at procs 2, and jcmd thread dumps do not"
                    + " group them by runtime");
        }
        return new GoroutineContainer(null, null);
    }

    private static final AtomicBoolean WARNED = new AtomicBoolean();

    /** Starts virtual thread {@code t} in this container (with {@code Thread.start()} in the fallback). */
    void start(Thread t) {
        if (container == null) {
            t.start();
            return;
        }
        try {
            START.invokeExact(t, container);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Takes the container out of the JDK's registry (the runtime closed). Idempotent. */
    void deregister() {
        if (key == null) {
            return;
        }
        try {
            DEREGISTER.invokeExact(key);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * The subclass: {@code final class GoroutineContainer$Jdk extends ThreadContainer} with a
     * {@code (String, Supplier)} constructor calling {@code super(true)} (a shared container: no
     * owner thread), {@code name()} returning the name and {@code threads()} returning the
     * supplier's stream. {@code onStart}/{@code onExit} keep the base class's empty bodies.
     */
    private static byte[] generate() {
        ClassDesc self = ClassDesc.of(GoroutineContainer.class.getName() + "$Jdk");
        ClassDesc sup = ClassDesc.of(SUPER);
        ClassDesc supplier = ClassDesc.of(Supplier.class.getName());
        ClassDesc stream = ClassDesc.of(Stream.class.getName());
        return ClassFile.of().build(self, cb -> cb
                .withFlags(ClassFile.ACC_FINAL | ClassFile.ACC_SUPER)
                .withSuperclass(sup)
                .withField("name", ConstantDescs.CD_String, ClassFile.ACC_PRIVATE | ClassFile.ACC_FINAL)
                .withField("threads", supplier, ClassFile.ACC_PRIVATE | ClassFile.ACC_FINAL)
                .withMethodBody(ConstantDescs.INIT_NAME,
                        MethodTypeDesc.of(ConstantDescs.CD_void, ConstantDescs.CD_String, supplier), ClassFile.ACC_PUBLIC,
                        b -> b.aload(0).iconst_1()
                                .invokespecial(sup, ConstantDescs.INIT_NAME, MethodTypeDesc.of(ConstantDescs.CD_void, ConstantDescs.CD_boolean))
                                .aload(0).aload(1).putfield(self, "name", ConstantDescs.CD_String)
                                .aload(0).aload(2).putfield(self, "threads", supplier)
                                .return_())
                .withMethodBody("name", MethodTypeDesc.of(ConstantDescs.CD_String), ClassFile.ACC_PUBLIC,
                        b -> b.aload(0).getfield(self, "name", ConstantDescs.CD_String).areturn())
                .withMethodBody("threads", MethodTypeDesc.of(stream), ClassFile.ACC_PUBLIC,
                        b -> b.aload(0).getfield(self, "threads", supplier)
                                .invokeinterface(supplier, "get", MethodTypeDesc.of(ConstantDescs.CD_Object))
                                .checkcast(stream).areturn()));
    }
}
