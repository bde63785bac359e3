package io.gmp4j.bench.remote;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.gmp4j.bench.remote.RemoteMsgs.Ack;
import io.gmp4j.bench.remote.RemoteMsgs.Data;
import io.gmp4j.bench.remote.RemoteMsgs.Done;
import io.gmp4j.bench.remote.RemoteMsgs.PHello;
import io.gmp4j.bench.remote.RemoteMsgs.PStart;
import io.gmp4j.bench.remote.RemoteMsgs.Ping;
import io.gmp4j.bench.remote.RemoteMsgs.Pong;
import io.gmp4j.bench.remote.RemoteMsgs.Ready;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.actor.Terminated;

/**
 * Pekko's side of the remote benchmarks: Apache Pekko classic actors with the {@code remote}
 * provider, Artery over TCP on 127.0.0.1 ({@link #config}); the driver finds the peer's
 * "ponger" and "receiver" by actor selection. Everything else is Pekko's default: the default
 * dispatcher, Artery's lanes and queues, and the remote watch failure detector (heartbeat 1 s,
 * acceptable pause 10 s, threshold 10). The {@code remote} provider rather than {@code cluster}:
 * a cluster member's death reaches remote watchers only once it is downed, and Pekko has no
 * downing provider by default, so at default settings a killed cluster member never yields
 * {@code Terminated}; the remote provider's watcher does, once
 * {@code use-unsafe-remote-features-outside-cluster = on} allows remote watch without a cluster
 * (off by default: such watches are dropped with a warning).
 */
final class PekkoRemote implements RemoteSide {
    static final String SYSTEM = "remote-bench";
    private final ActorSystem system;
    private final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    private final ActorRef collector;
    private ActorRef ponger;
    private ActorRef receiver;
    private ActorRef pinger;
    private List<ActorRef> senders = List.of();

    /** A local message: run {@code n} round trips. */
    private record PingRun(int n) {
    }

    /** A local message: send {@code quota} messages. */
    private record Go(long quota, int window) {
    }

    PekkoRemote() {
        system = ActorSystem.create(SYSTEM, config(0));
        collector = system.actorOf(Props.create(Collector.class, () -> new Collector(inbox)), "collector");
    }

    /**
     * Pekko's defaults but for what loopback and the port need: provider remote, Artery TCP on
     * 127.0.0.1 and {@code port} (0: any free one), remote watch allowed without a cluster, the
     * serializer of {@link RemoteMsgs} ({@link PekkoWire}); logging at WARNING, without the
     * warning that the remote provider is used directly.
     */
    static Config config(int port) {
        StringBuilder bindings = new StringBuilder();
        for (Class<?> c : List.of(Ping.class, Pong.class, Data.class, Ack.class, Done.class, Ready.class,
                PHello.class, PStart.class)) {
            bindings.append("      \"").append(c.getName()).append("\" = gmp4j-bench\n");
        }
        return ConfigFactory.parseString(String.format(Locale.ROOT, """
                pekko {
                  loglevel = "WARNING"
                  stdout-loglevel = "WARNING"
                  actor {
                    provider = remote
                    serializers { gmp4j-bench = "%s" }
                    serialization-bindings {
                %s    }
                  }
                  remote.warn-about-direct-use = off
                  remote.use-unsafe-remote-features-outside-cluster = on
                  remote.artery {
                    transport = tcp
                    canonical.hostname = "127.0.0.1"
                    canonical.port = %d
                  }
                }
                """, PekkoWire.class.getName(), bindings, port)).withFallback(ConfigFactory.defaultReference()).resolve();
    }

    @Override
    public List<String> peerArgs() {
        return List.of();
    }

    @Override
    public void connect(String info) throws Exception {
        int port = Integer.parseInt(info.strip());
        ponger = resolve(port, "ponger");
        receiver = resolve(port, "receiver");
        if (pinger != null) {
            system.stop(pinger);
        }
        ActorRef target = ponger;
        pinger = system.actorOf(Props.create(Pinger.class, () -> new Pinger(target, inbox)));
        senders.forEach(system::stop);
        senders = List.of();
    }

    private ActorRef resolve(int port, String name) throws Exception {
        String path = "pekko://" + SYSTEM + "@127.0.0.1:" + port + "/user/" + name;
        return system.actorSelection(path).resolveOne(Duration.ofSeconds(30)).toCompletableFuture()
                .get(60, TimeUnit.SECONDS);
    }

    @Override
    public long[] pingpong(int n, Duration timeout) throws InterruptedException {
        pinger.tell(new PingRun(n), ActorRef.noSender());
        return RemoteSide.take(inbox, long[].class, timeout, "pekko remote-pingpong");
    }

    @Override
    public Done throughput(int n, long total, Duration timeout) throws InterruptedException {
        if (senders.size() != n) {
            senders.forEach(system::stop);
            List<ActorRef> s = new ArrayList<>();
            ActorRef to = receiver;
            for (int i = 0; i < n; i++) {
                int id = i;
                s.add(system.actorOf(Props.create(Sender.class, () -> new Sender(id, to))));
            }
            senders = List.copyOf(s);
        }
        receiver.tell(new PStart(total, senders, collector), ActorRef.noSender());
        Ready ready = RemoteSide.take(inbox, Ready.class, timeout, "pekko: the receiver's Ready");
        if (ready.total() != total) {
            throw new IllegalStateException("receiver ready for " + ready.total() + " messages, not " + total);
        }
        for (ActorRef s : senders) {
            s.tell(new Go(total / n, FlowControl.window(n)), ActorRef.noSender());
        }
        return RemoteSide.take(inbox, Done.class, timeout, "pekko: the receiver's Done (a message lost?)");
    }

    @Override
    public BlockingQueue<Terminal> watchPonger(Duration timeout) throws InterruptedException {
        BlockingQueue<Terminal> died = new LinkedBlockingQueue<>();
        ActorRef target = ponger;
        system.actorOf(Props.create(Watcher.class, () -> new Watcher(target, inbox, died)));
        RemoteSide.take(inbox, Pong.class, timeout, "pekko: the watcher's round trip");
        return died;
    }

    @Override
    public void close() {
        terminate(system);
    }

    static void terminate(ActorSystem system) {
        system.terminate();
        try {
            system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("pekko did not terminate within 30 s", e);
        }
    }

    // =====================================================================================
    // The driver's actors
    // =====================================================================================

    /** Puts every message into the driver's inbox. */
    static final class Collector extends AbstractActor {
        private final BlockingQueue<Object> inbox;

        Collector(BlockingQueue<Object> inbox) {
            this.inbox = inbox;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().matchAny(inbox::add).build();
        }
    }

    /** Pings the ponger {@code n} times per run; reports the latencies (or a failure) to the inbox. */
    static final class Pinger extends AbstractActor {
        private final ActorRef ponger;
        private final BlockingQueue<Object> inbox;
        private long[] times;
        private int next;
        private long sentAt;

        Pinger(ActorRef ponger, BlockingQueue<Object> inbox) {
            this.ponger = ponger;
            this.inbox = inbox;
        }

        @Override
        public void preStart() {
            ponger.tell(new PHello(getSelf()), ActorRef.noSender());
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(PingRun.class, r -> {
                        times = new long[r.n()];
                        next = 0;
                        sentAt = System.nanoTime();
                        ponger.tell(new Ping(0), ActorRef.noSender());
                    })
                    .match(Pong.class, p -> {
                        long now = System.nanoTime();
                        if (times == null || p.seq() != next) {
                            inbox.add(new IllegalStateException("pong " + p.seq() + " when " + next + " was in flight"));
                            return;
                        }
                        times[next] = now - sentAt;
                        next++;
                        if (next < times.length) {
                            sentAt = System.nanoTime();
                            ponger.tell(new Ping(next), ActorRef.noSender());
                        } else {
                            inbox.add(times);
                            times = null;
                        }
                    })
                    .matchAny(m -> inbox.add(new IllegalStateException("pinger: unexpected " + m)))
                    .build();
        }
    }

    /** Sender {@code id}: sends its quota to the receiver within its credit window. */
    static final class Sender extends AbstractActor {
        private final int id;
        private final ActorRef receiver;
        private FlowControl.Credit credit;

        Sender(int id, ActorRef receiver) {
            this.id = id;
            this.receiver = receiver;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Go.class, g -> {
                        credit = new FlowControl.Credit(g.quota(), g.window());
                        pump();
                    })
                    .match(Ack.class, a -> {
                        credit.ack(a.received());
                        pump();
                    })
                    .build();
        }

        private void pump() {
            for (long s; (s = credit.next()) >= 0; ) {
                receiver.tell(new Data(id, s), ActorRef.noSender());
            }
        }
    }

    /** Watches the target, makes one round trip with it, reports its Terminated. */
    static final class Watcher extends AbstractActor {
        private final ActorRef target;
        private final BlockingQueue<Object> inbox;
        private final BlockingQueue<Terminal> died;

        Watcher(ActorRef target, BlockingQueue<Object> inbox, BlockingQueue<Terminal> died) {
            this.target = target;
            this.inbox = inbox;
            this.died = died;
        }

        @Override
        public void preStart() {
            getContext().watch(target);
            target.tell(new PHello(getSelf()), ActorRef.noSender());
            target.tell(new Ping(-1), ActorRef.noSender());
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Terminated.class, t -> {
                        died.add(new Terminal(System.nanoTime(), "Terminated(addressTerminated=" + t.addressTerminated()
                                + ", existenceConfirmed=" + t.existenceConfirmed() + ")"));
                        getContext().stop(getSelf());
                    })
                    .match(Pong.class, inbox::add)
                    .matchAny(m -> inbox.add(new IllegalStateException("watcher: unexpected " + m)))
                    .build();
        }
    }

    // =====================================================================================
    // The peer
    // =====================================================================================

    /** The peer's system: "ponger" and "receiver"; its ready info is its Artery port. */
    static RemotePeer.Served servePeer(List<String> args) {
        if (!args.isEmpty()) {
            throw new IllegalArgumentException("pekko peer: no arguments expected, got " + args);
        }
        ActorSystem system = ActorSystem.create(SYSTEM, config(0));
        system.actorOf(Props.create(Ponger.class, Ponger::new), "ponger");
        system.actorOf(Props.create(Receiver.class, Receiver::new), "receiver");
        int port = ((ExtendedActorSystem) system).provider().getDefaultAddress().getPort()
                .orElseThrow(() -> new IllegalStateException("pekko peer: no port"));
        return new RemotePeer.Served(Integer.toString(port), () -> terminate(system));
    }

    /** Answers each Ping with its Pong to the pinger of the last Hello. */
    static final class Ponger extends AbstractActor {
        private ActorRef to;

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(PHello.class, h -> to = h.replyTo())
                    .match(Ping.class, p -> to.tell(new Pong(p.seq()), ActorRef.noSender()))
                    .build();
        }
    }

    /** Counts each run's Data exactly ({@link FlowControl.Tally}), acknowledges, reports Done. */
    static final class Receiver extends AbstractActor {
        private final FlowControl.Tally tally = new FlowControl.Tally();
        private PStart run;

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(PStart.class, s -> {
                        tally.reset(s.total(), s.senders().size());
                        run = s;
                        s.doneTo().tell(new Ready(s.total()), ActorRef.noSender());
                    })
                    .match(Data.class, d -> {
                        long ack = tally.onData(d.sender(), d.seq());
                        if (ack >= 0) {
                            run.senders().get(d.sender()).tell(new Ack(d.sender(), ack), ActorRef.noSender());
                        }
                        if (tally.justCompleted()) {
                            run.doneTo().tell(new Done(tally.received(), tally.errors()), ActorRef.noSender());
                        }
                    })
                    .build();
        }
    }
}
