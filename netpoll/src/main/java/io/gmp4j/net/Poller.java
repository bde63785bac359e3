package io.gmp4j.net;

import io.gmp4j.GoRuntime;
import io.gmp4j.runtime.NetpollThread;
import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.TaskBatch;
import io.gmp4j.runtime.Waiter;
import io.netty.channel.Channel;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ManualIoEventLoop;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One runtime's network poller: a Netty {@link ManualIoEventLoop} driven by a platform thread
 * of its own, an M without a P like sysmon (option (a) of issue 4).
 *
 * <h2>A turn</h2>
 * The thread blocks in {@code loop.run(0)} until I/O is ready or a task arrives (a read
 * request, a write, a close handed over by a goroutine: {@code inEventLoop()} is never true
 * in a goroutine). The handlers it runs ({@link Conn}, {@link Listener}) queue bytes or
 * connections and wake the goroutines parked on them. Each wake is {@code G.ready}, which
 * unparks the virtual thread, which makes the JDK call {@link Scheduler#execute} on this
 * thread; the scheduler appends those tasks to {@link #batch}
 * ({@link Scheduler#batchExecutesOf}) and the turn ends with one
 * {@link Scheduler#injectglist}: Go's {@code netpoll} result list entering the run queues at
 * once, an idle P started per task as far as there are idle Ps.
 *
 * <h2>Hand-offs</h2>
 * Goroutines hand tasks to the loop with {@code execute}; Netty writes its wake-up eventfd only
 * when the loop is blocked and not already woken, so a burst of requests during one turn
 * costs one wake-up.
 *
 * <h2>Waiters</h2>
 * {@link #waiters} counts threads parked in {@link #park}: {@code checkdead} sees them
 * through {@link #hasWaiters} and does not call a goroutine waiting for a peer deadlocked.
 * The count rises before the park and falls after it returns, so it over-counts briefly,
 * never under-counts.
 */
final class Poller implements NetpollThread {
    /** The transports: epoll (native) when it loads, NIO otherwise; {@code -Dgmp4j.netpoll.transport=nio} forces NIO. */
    enum Transport {
        EPOLL("epoll", EpollSocketChannel.class, EpollServerSocketChannel.class),
        NIO("nio", NioSocketChannel.class, NioServerSocketChannel.class);

        final String word;
        final Class<? extends Channel> socket;
        final Class<? extends ServerChannel> server;

        Transport(String word, Class<? extends Channel> socket, Class<? extends ServerChannel> server) {
            this.word = word;
            this.socket = socket;
            this.server = server;
        }

        IoHandlerFactory factory() {
            return this == EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        }

        static Transport choose() {
            if ("nio".equalsIgnoreCase(System.getProperty("gmp4j.netpoll.transport"))) {
                return NIO;
            }
            return Epoll.isAvailable() ? EPOLL : NIO;
        }
    }

    private static final AtomicInteger ids = new AtomicInteger();

    final Scheduler sched;
    final Transport transport;
    final ManualIoEventLoop loop;
    private final Thread thread;
    /** Tasks readied during the current turn; only the poller thread touches it. */
    private final TaskBatch batch = new TaskBatch();
    private final AtomicInteger waiters = new AtomicInteger();
    /** Open connections and listeners, for the stats and for releasing buffers on shutdown. */
    final Set<Conn> conns = ConcurrentHashMap.newKeySet();
    final Set<Listener> listeners = ConcurrentHashMap.newKeySet();
    /** Turns run; written by the poller thread only. */
    private volatile long turns;
    private final AtomicBoolean started = new AtomicBoolean();
    /** Whether this poller is its runtime's (see {@link #start}). */
    private boolean attached;

    private Poller(Scheduler sched) {
        this.sched = sched;
        this.transport = Transport.choose();
        this.thread = Thread.ofPlatform().daemon().name("gmp4j-netpoll-" + ids.incrementAndGet())
                .unstarted(this::run);
        this.loop = new ManualIoEventLoop(null, thread, transport.factory());
    }

    /**
     * Starts the thread once. Only the poller that won the attach race ({@code attached}) takes
     * over the scheduler's executes; a loser is started only to run its loop's shutdown, which
     * closes the epoll and wake-up descriptors its constructor opened.
     */
    private void start(boolean attached) {
        if (started.compareAndSet(false, true)) {
            this.attached = attached; // before Thread.start: the thread sees it
            thread.start();
        }
    }

    /** The poller of the calling goroutine's runtime (the default runtime's for other threads), started on first use. */
    static Poller current() {
        Scheduler s = Scheduler.current();
        if (s == null) {
            s = GoRuntime.defaultRuntime().scheduler();
        }
        Scheduler owner = s;
        NetpollThread np = s.netpollThread(() -> new Poller(owner));
        if (!(np instanceof Poller p)) {
            throw new IllegalStateException("runtime " + s + " already has another network poller: " + np);
        }
        // Whoever gets the attached poller first starts it (the creator may not have yet: tasks
        // handed to the loop meanwhile wait in its queue).
        p.start(true);
        return p;
    }

    private void run() {
        if (attached) {
            sched.batchExecutesOf(thread, batch);
        }
        long n = 0;
        while (!loop.isTerminated()) {
            try {
                loop.run(0); // block until I/O or a task; 0 = no limit on the wait
            } catch (Throwable t) {
                System.err.println("gmp4j: netpoll turn failed:");
                t.printStackTrace();
            }
            turns = ++n;
            if (!batch.isEmpty()) {
                sched.injectglist(batch); // one batch per turn (Go's injectglist); clears it
            }
        }
        // The loop closed every channel on its way down: release what conns still hold.
        for (Conn c : conns) {
            c.discard();
        }
        if (!batch.isEmpty()) {
            sched.injectglist(batch);
        }
    }

    /**
     * Parks the calling thread on {@code w} (enqueued by the caller under its lock) until woken
     * or, when {@code timed}, until {@code deadline} ({@link System#nanoTime}).
     *
     * @return false if the deadline won
     */
    boolean park(Waiter w, String reason, boolean timed, long deadline) {
        waiters.incrementAndGet(); // before the park: checkdead must not miss us
        try {
            if (timed) {
                return w.park(reason, deadline);
            }
            w.park(reason);
            return true;
        } finally {
            waiters.decrementAndGet();
        }
    }

    @Override
    public boolean hasWaiters() {
        return waiters.get() > 0;
    }

    @Override
    public String describe() {
        return transport.word + " conns=" + conns.size() + " listeners=" + listeners.size() + " waiters="
                + waiters.get() + " turns=" + turns;
    }

    @Override
    public void shutdown(long timeoutMillis) {
        loop.shutdownGracefully(0, Math.max(1, timeoutMillis), TimeUnit.MILLISECONDS);
        start(false); // never started (lost the attach race, or closed first): run the shutdown
        if (Thread.currentThread() != thread) {
            try {
                thread.join(Math.max(1, timeoutMillis));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The poller thread, for tests. */
    Thread thread() {
        return thread;
    }

    @Override
    public String toString() {
        return "netpoll[" + describe() + "]";
    }
}
