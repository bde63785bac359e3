package io.gmp4j.bench;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.gmp4j.actor.ActorSystem;
import io.gmp4j.actor.Behavior;
import java.util.Locale;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.Props;
import scala.concurrent.Await;
import scala.concurrent.duration.Duration;

/**
 * The small actor API the Savina bodies ({@link SavinaBodies}) are written against, one final
 * implementation class per actor runtime, so that the bodies are the identical code for all
 * three (as {@link BenchChan} does for channels). Each child JVM runs one implementation: every
 * call site sees one adapter class and the JIT inlines it.
 *
 * <ul>
 *   <li>{@code gmp4j}: behaviour actors of {@code io.gmp4j.actor} in an {@link ActorSystem} with
 *       its own runtime built with {@code maxProcs(N)}, the system's default throughput
 *       ({@value ActorSystem#DEFAULT_THROUGHPUT} messages per run), JCTools MPSC mailboxes.</li>
 *   <li>{@code pekko}: Apache Pekko classic actors ({@link AbstractActor}), the default
 *       dispatcher a {@code fork-join-executor} with parallelism-min = parallelism-max = N,
 *       throughput 5 (Pekko's default), the default unbounded mailbox
 *       ({@code UnboundedMailbox}, a {@code ConcurrentLinkedQueue}); see {@link #pekkoConfig}.</li>
 *   <li>{@code jdk}: hand-written, one virtual thread per actor on the default scheduler
 *       (parallelism N from the child's {@code -Djdk.virtualThreadScheduler.parallelism}) that
 *       loops on a {@link LinkedBlockingQueue} mailbox.</li>
 * </ul>
 *
 * Actors are spawned from the benchmark's (platform) main thread or from inside other actors;
 * an actor stops when its handler returns false.
 */
public abstract sealed class SavinaActors implements AutoCloseable {

    /** An actor's address. */
    public interface Ref {
        void tell(Object msg);
    }

    /** A message handler: false stops the actor after this message. */
    public interface Handler {
        boolean receive(Object msg);
    }

    /** The implementation's name: gmp4j, pekko or jdk. */
    public abstract String name();

    /** Spawns an actor; {@code factory} gets the actor's own reference and builds its handler. */
    public abstract Ref spawn(Function<Ref, Handler> factory);

    /** Counters for the report, or "". */
    public String stats() {
        return "";
    }

    @Override
    public abstract void close();

    /** The implementation {@code impl} (gmp4j, pekko, jdk) with {@code procs} processors. */
    public static SavinaActors of(String impl, int procs) {
        return switch (impl) {
            case "gmp4j" -> new Gmp4j(procs);
            case "pekko" -> new Pekko(procs);
            case "jdk" -> new Jdk();
            default -> throw new IllegalArgumentException("unknown impl '" + impl + "' for savina (gmp4j, pekko, jdk)");
        };
    }

    /**
     * Pekko's configuration for {@code procs}: the default dispatcher on a fork-join pool of
     * exactly {@code procs} threads, throughput 5 (Pekko's default: messages an actor handles
     * per turn on a thread), default mailbox; logging and dead-letter logging quiet.
     */
    static Config pekkoConfig(int procs) {
        return ConfigFactory.parseString(String.format(Locale.ROOT, """
                pekko {
                  loglevel = "WARNING"
                  stdout-loglevel = "WARNING"
                  log-dead-letters = off
                  log-dead-letters-during-shutdown = off
                  jvm-exit-on-fatal-error = off
                  actor.default-dispatcher {
                    type = "Dispatcher"
                    executor = "fork-join-executor"
                    fork-join-executor {
                      parallelism-min = %d
                      parallelism-factor = 1.0
                      parallelism-max = %d
                    }
                    throughput = 5
                  }
                }
                """, procs, procs)).withFallback(ConfigFactory.defaultReference());
    }

    // =====================================================================================
    // gmp4j: behaviour actors
    // =====================================================================================

    static final class Gmp4j extends SavinaActors {
        private final ActorSystem system;

        Gmp4j(int procs) {
            system = ActorSystem.builder().name("savina").maxProcs(procs).build();
        }

        @Override
        public String name() {
            return "gmp4j";
        }

        io.gmp4j.GoRuntime runtime() {
            return system.runtime();
        }

        @Override
        public Ref spawn(Function<Ref, Handler> factory) {
            io.gmp4j.actor.ActorRef<Object> ref = system.spawn(Behavior.setup(ctx -> {
                io.gmp4j.actor.ActorRef<Object> self = ctx.self();
                Handler h = factory.apply(self::tell);
                return (c, msg) -> h.receive(msg) ? Behavior.same() : Behavior.stopped();
            }));
            return ref::tell;
        }

        @Override
        public String stats() {
            return system.runtime().stats() + " deadLetters=" + system.deadLetterCount();
        }

        @Override
        public void close() {
            system.close();
        }
    }

    // =====================================================================================
    // pekko: classic actors
    // =====================================================================================

    static final class Pekko extends SavinaActors {
        private final org.apache.pekko.actor.ActorSystem system;

        Pekko(int procs) {
            system = org.apache.pekko.actor.ActorSystem.create("savina", pekkoConfig(procs));
        }

        @Override
        public String name() {
            return "pekko";
        }

        @Override
        public Ref spawn(Function<Ref, Handler> factory) {
            ActorRef ref = system.actorOf(Props.create(HandlerActor.class, () -> new HandlerActor(factory)));
            return new PekkoRef(ref);
        }

        @Override
        public void close() {
            system.terminate();
            try {
                Await.result(system.whenTerminated(), Duration.create(30, TimeUnit.SECONDS));
            } catch (Exception e) {
                throw new IllegalStateException("pekko did not terminate", e);
            }
        }

        record PekkoRef(ActorRef ref) implements Ref {
            @Override
            public void tell(Object msg) {
                ref.tell(msg, ActorRef.noSender());
            }
        }

        static final class HandlerActor extends AbstractActor {
            private final Handler handler;

            HandlerActor(Function<Ref, Handler> factory) {
                this.handler = factory.apply(new PekkoRef(getSelf()));
            }

            @Override
            public Receive createReceive() {
                return receiveBuilder().matchAny(msg -> {
                    if (!handler.receive(msg)) {
                        getContext().stop(getSelf());
                    }
                }).build();
            }
        }
    }

    // =====================================================================================
    // jdk: a virtual thread per actor, LinkedBlockingQueue mailbox
    // =====================================================================================

    static final class Jdk extends SavinaActors {
        @Override
        public String name() {
            return "jdk";
        }

        @Override
        public Ref spawn(Function<Ref, Handler> factory) {
            JdkActor a = new JdkActor();
            Handler h = factory.apply(a);
            Thread.startVirtualThread(() -> a.loop(h));
            return a;
        }

        @Override
        public void close() {
        }

        static final class JdkActor implements Ref {
            private final LinkedBlockingQueue<Object> mailbox = new LinkedBlockingQueue<>();

            @Override
            public void tell(Object msg) {
                mailbox.offer(msg); // unbounded: never blocks
            }

            void loop(Handler h) {
                try {
                    while (h.receive(mailbox.take())) {
                        // next message
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (Throwable t) {
                    System.err.println("jdk actor failed: " + t);
                    t.printStackTrace();
                }
            }
        }
    }
}
