package io.gmp4j.bench;

import org.jctools.queues.MpscUnboundedArrayQueue;

import java.lang.reflect.Constructor;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The least a custom virtual-thread scheduler can be: one platform carrier thread draining a
 * JCTools MPSC queue, parking when it is empty. No Ps, no stealing, no registry, no preemption:
 * the cost floor of the JDK's custom-scheduler hook itself (the same reflective
 * {@code VirtualThreadBuilder(Executor)} constructor gmp4j uses), for the {@code floor}
 * benchmark's {@code direct} rows. Not a scheduler anyone should run programs on.
 */
final class DirectScheduler implements Executor, AutoCloseable {
    private final MpscUnboundedArrayQueue<Runnable> queue = new MpscUnboundedArrayQueue<>(1024);
    private final AtomicBoolean sleeping = new AtomicBoolean();
    private final Thread carrier;
    private final ThreadFactory factory;
    private volatile boolean closed;

    DirectScheduler() {
        carrier = Thread.ofPlatform().daemon().name("direct-carrier").start(this::loop);
        try {
            Constructor<?> ctor = Class.forName("java.lang.ThreadBuilders$VirtualThreadBuilder")
                    .getDeclaredConstructor(Executor.class);
            ctor.setAccessible(true); // needs --add-opens java.base/java.lang=ALL-UNNAMED, as gmp4j does
            factory = ((Thread.Builder.OfVirtual) ctor.newInstance(this)).factory();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("direct scheduler: no VirtualThreadBuilder(Executor)", e);
        }
    }

    /** Starts {@code r} in a virtual thread carried by this scheduler's one thread. */
    Thread start(Runnable r) {
        Thread t = factory.newThread(r);
        t.start();
        return t;
    }

    @Override
    public void execute(Runnable task) {
        queue.offer(task);
        // The carrier sets `sleeping` and re-checks the queue before it parks: either it sees
        // this task, or we see `sleeping` and unpark it (both volatile: a Dekker pair).
        if (sleeping.get() && sleeping.compareAndSet(true, false)) {
            LockSupport.unpark(carrier);
        }
    }

    private void loop() {
        while (!closed) {
            Runnable r = queue.relaxedPoll();
            if (r != null) {
                r.run();
                continue;
            }
            sleeping.set(true);
            if (!queue.isEmpty() || closed) {
                sleeping.set(false);
                continue;
            }
            LockSupport.park(this);
            sleeping.set(false);
        }
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(carrier);
    }
}
