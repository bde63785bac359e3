package io.gmp4j.bench;

import com.softwaremill.jox.Channel;
import com.softwaremill.jox.SelectClause;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.Select;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.SynchronousQueue;

/**
 * The channel adapter the {@link ChanBodies} use: a blocking send and receive, nothing else.
 * One final adapter class per implementation. Each child JVM runs one benchmark of one
 * implementation, so every call site in the bodies sees exactly one receiver class (and, for
 * jdk, one queue class) and stays monomorphic: the JIT inlines the adapter away.
 *
 * @param <T> the element type
 */
public interface BenchChan<T> {
    /** Sends {@code v}, blocking until a receiver takes it (unbuffered) or there is room. */
    void send(T v);

    /** Receives a value, blocking until one is there. */
    T recv();

    /** A receiver selecting over two channels (Go's {@code select} with two receive cases). */
    interface Select2<T> {
        /** Blocks until one of the two channels delivers; returns 0 or 1, the case that fired. */
        int select();

        /** The value the last {@link #select()} received. */
        T value();
    }

    /** One implementation's channels, selects and goroutines. */
    interface Impl {
        String name();

        /** Go's {@code make(chan T, cap)}; cap 0 is unbuffered. */
        <T> BenchChan<T> make(int cap);

        /** A select over receives from {@code a} and {@code b}; throws where there is none. */
        <T> Select2<T> select2(BenchChan<T> a, BenchChan<T> b);

        Spawner spawner();
    }

    /** An implementation by name: gmp4j, jdk or jox. */
    static Impl impl(String name) {
        return switch (name) {
            case "gmp4j" -> GMP4J;
            case "jdk" -> JDK;
            case "jox" -> JOX;
            default -> throw new IllegalArgumentException("unknown channel impl '" + name + "' (gmp4j, jdk, jox)");
        };
    }

    // =====================================================================================
    // gmp4j: io.gmp4j.chan.Chan and Select; goroutines through Go.go
    // =====================================================================================

    Impl GMP4J = new Impl() {
        @Override
        public String name() {
            return "gmp4j";
        }

        @Override
        public <T> BenchChan<T> make(int cap) {
            return new Gmp4jChan<>(new Chan<>(cap));
        }

        @Override
        public <T> Select2<T> select2(BenchChan<T> a, BenchChan<T> b) {
            return new Gmp4jSelect2<>(((Gmp4jChan<T>) a).c, ((Gmp4jChan<T>) b).c);
        }

        @Override
        public Spawner spawner() {
            return Spawner.GMP4J;
        }
    };

    record Gmp4jChan<T>(Chan<T> c) implements BenchChan<T> {
        @Override
        public void send(T v) {
            c.send(v);
        }

        @Override
        public T recv() {
            T v = c.recv();
            if (v == null) {
                throw new IllegalStateException("gmp4j: recv on a closed channel in a benchmark");
            }
            return v;
        }
    }

    /** The reusable Select, rebuilt each round as the Select javadoc shows. */
    final class Gmp4jSelect2<T> implements Select2<T> {
        private final Select s = new Select();
        private final Chan<T> a;
        private final Chan<T> b;

        Gmp4jSelect2(Chan<T> a, Chan<T> b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public int select() {
            s.reset();
            int ia = s.recv(a);
            s.recv(b);
            return s.select() == ia ? 0 : 1;
        }

        @Override
        public T value() {
            return s.value();
        }
    }

    // =====================================================================================
    // jdk: SynchronousQueue (unbuffered) / ArrayBlockingQueue (buffered); virtual threads
    // =====================================================================================

    Impl JDK = new Impl() {
        @Override
        public String name() {
            return "jdk";
        }

        @Override
        public <T> BenchChan<T> make(int cap) {
            return new JdkChan<>(cap == 0 ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(cap));
        }

        @Override
        public <T> Select2<T> select2(BenchChan<T> a, BenchChan<T> b) {
            throw new UnsupportedOperationException("jdk: java.util.concurrent has no select");
        }

        @Override
        public Spawner spawner() {
            return Spawner.JDK;
        }
    };

    record JdkChan<T>(BlockingQueue<T> q) implements BenchChan<T> {
        @Override
        public void send(T v) {
            try {
                q.put(v);
            } catch (InterruptedException e) {
                throw interrupted(e);
            }
        }

        @Override
        public T recv() {
            try {
                return q.take();
            } catch (InterruptedException e) {
                throw interrupted(e);
            }
        }
    }

    // =====================================================================================
    // jox: com.softwaremill.jox.Channel and Select on JDK virtual threads
    // =====================================================================================

    Impl JOX = new Impl() {
        @Override
        public String name() {
            return "jox";
        }

        @Override
        public <T> BenchChan<T> make(int cap) {
            return new JoxChan<>(cap == 0 ? Channel.newRendezvousChannel() : Channel.newBufferedChannel(cap));
        }

        @Override
        public <T> Select2<T> select2(BenchChan<T> a, BenchChan<T> b) {
            return new JoxSelect2<>(((JoxChan<T>) a).c, ((JoxChan<T>) b).c);
        }

        @Override
        public Spawner spawner() {
            return Spawner.JDK;
        }
    };

    record JoxChan<T>(Channel<T> c) implements BenchChan<T> {
        @Override
        public void send(T v) {
            try {
                c.send(v);
            } catch (InterruptedException e) {
                throw interrupted(e);
            }
        }

        @Override
        public T recv() {
            try {
                return c.receive();
            } catch (InterruptedException e) {
                throw interrupted(e);
            }
        }
    }

    /**
     * Jox's {@code Select.select(clauses...)} returns the (mapped) value, not the case: each
     * clause's mapping records its index. The clauses are built once and reused (they hold only
     * the channel and the mapping).
     */
    final class JoxSelect2<T> implements Select2<T> {
        private final SelectClause<?>[] clauses;
        private int fired = -1;
        private T value;

        JoxSelect2(Channel<T> a, Channel<T> b) {
            clauses = new SelectClause<?>[]{
                    a.receiveClause(v -> {
                        fired = 0;
                        return v;
                    }),
                    b.receiveClause(v -> {
                        fired = 1;
                        return v;
                    })};
        }

        @Override
        @SuppressWarnings("unchecked")
        public int select() {
            fired = -1;
            try {
                value = (T) com.softwaremill.jox.Select.select((SelectClause<Object>[]) clauses);
            } catch (InterruptedException e) {
                throw interrupted(e);
            }
            return fired;
        }

        @Override
        public T value() {
            return value;
        }
    }

    private static IllegalStateException interrupted(InterruptedException e) {
        Thread.currentThread().interrupt();
        return new IllegalStateException("interrupted in a channel benchmark", e);
    }
}
