package io.gmp4j.bench.remote;

import io.gmp4j.actor.ActorRef;
import io.gmp4j.actor.ActorSystem;
import io.gmp4j.actor.Behavior;
import io.gmp4j.actor.Terminated;
import io.gmp4j.bench.remote.RemoteMsgs.Ack;
import io.gmp4j.bench.remote.RemoteMsgs.Data;
import io.gmp4j.bench.remote.RemoteMsgs.Done;
import io.gmp4j.bench.remote.RemoteMsgs.GHello;
import io.gmp4j.bench.remote.RemoteMsgs.GStart;
import io.gmp4j.bench.remote.RemoteMsgs.Ping;
import io.gmp4j.bench.remote.RemoteMsgs.Pong;
import io.gmp4j.bench.remote.RemoteMsgs.Ready;
import io.gmp4j.cluster.ClusterConfig;
import io.gmp4j.cluster.ClusterNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;

/**
 * gmp4j's side of the remote benchmarks: behaviour actors of an {@link ActorSystem} (GOMAXPROCS
 * from {@code -Dgmp4j.maxprocs}, default throughput, unbounded mailboxes) joined with
 * {@link ClusterNode#join} on loopback, a cluster name and Hazelcast port of this run's own; the
 * peer registers "ponger" and "receiver", the driver finds them with {@code lookup}. Every other
 * setting is the cluster's default (failure detection included).
 */
final class Gmp4jRemote implements RemoteSide {
    private final String clusterName = "gmp4j-bench-" + UUID.randomUUID().toString().substring(0, 8);
    private final int port = 20_000 + ThreadLocalRandom.current().nextInt(20_000);
    private final ActorSystem system;
    private final ClusterNode node;
    /** Everything the driver's actors report: results, pongs, Ready and Done, failures. */
    private final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    private final ActorRef<Object> collector;
    private ActorRef<Object> ponger;
    private ActorRef<Object> receiver;
    private ActorRef<Object> pinger;
    private List<ActorRef<Object>> senders = List.of();

    /** A local message: run {@code n} round trips. */
    private record PingRun(int n) {
    }

    /** A local message: send {@code quota} messages. */
    private record Go(long quota, int window) {
    }

    Gmp4jRemote() {
        system = ActorSystem.create("remote-driver");
        try {
            node = ClusterNode.join(system, config(clusterName, port, List.of("127.0.0.1:" + port)));
        } catch (RuntimeException e) {
            system.close();
            throw e;
        }
        collector = system.spawn((ctx, m) -> {
            inbox.add(m);
            return Behavior.same();
        });
    }

    private static ClusterConfig config(String name, int port, List<String> members) {
        return ClusterConfig.builder().clusterName(name).hazelcastPort(port).members(members)
                .allow(RemoteMsgs.GMP4J_TYPES).build();
    }

    @Override
    public List<String> peerArgs() {
        return List.of(clusterName, Integer.toString(port + 1), "127.0.0.1:" + port);
    }

    /**
     * The peer's actor registered as {@code name}: the peer says it is ready once it registered
     * its names, and the cluster's directory reaches this node a moment later, so this looks
     * again until the name arrives, for up to 30 s.
     */
    private ActorRef<Object> awaitName(String name, String info) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            java.util.Optional<ActorRef<Object>> ref = node.lookup(name);
            if (ref.isPresent()) {
                return ref.get();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("no '" + name + "' in the cluster after 30 s (peer " + info + ")");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
        }
    }

    @Override
    public void connect(String info) {
        ponger = awaitName("ponger", info);
        receiver = awaitName("receiver", info);
        if (pinger != null) {
            pinger.stop();
        }
        pinger = system.spawn(pinger(ponger));
        for (ActorRef<Object> s : senders) {
            s.stop();
        }
        senders = List.of();
    }

    /** Pings {@code ponger} {@code n} times per run; reports the latencies (or a failure) to the inbox. */
    private Behavior<Object> pinger(ActorRef<Object> ponger) {
        return Behavior.setup(ctx -> {
            ponger.tell(new GHello(ctx.self()));
            long[][] times = {null};
            long[] state = new long[2]; // next seq, time the ping in flight was sent
            return (c, m) -> {
                switch (m) {
                    case PingRun r -> {
                        times[0] = new long[r.n()];
                        state[0] = 0;
                        state[1] = System.nanoTime();
                        ponger.tell(new Ping(0));
                    }
                    case Pong p -> {
                        long now = System.nanoTime();
                        int i = (int) state[0];
                        if (times[0] == null || p.seq() != i) {
                            inbox.add(new IllegalStateException("pong " + p.seq() + " when " + i + " was in flight"));
                            return Behavior.same();
                        }
                        times[0][i] = now - state[1];
                        state[0] = i + 1;
                        if (i + 1 < times[0].length) {
                            state[1] = System.nanoTime();
                            ponger.tell(new Ping(i + 1));
                        } else {
                            inbox.add(times[0]);
                            times[0] = null;
                        }
                    }
                    default -> inbox.add(new IllegalStateException("pinger: unexpected " + m));
                }
                return Behavior.same();
            };
        });
    }

    @Override
    public long[] pingpong(int n, Duration timeout) throws InterruptedException {
        pinger.tell(new PingRun(n));
        return RemoteSide.take(inbox, long[].class, timeout, "gmp4j remote-pingpong");
    }

    /** Sender {@code id}: sends its quota to {@code receiver} within its credit window. */
    private Behavior<Object> sender(int id, ActorRef<Object> receiver) {
        FlowControl.Credit[] credit = {null};
        return (ctx, m) -> {
            switch (m) {
                case Go g -> credit[0] = new FlowControl.Credit(g.quota(), g.window());
                case Ack a -> credit[0].ack(a.received());
                default -> throw new IllegalStateException("sender: unexpected " + m);
            }
            for (long s; (s = credit[0].next()) >= 0; ) {
                receiver.tell(new Data(id, s));
            }
            return Behavior.same();
        };
    }

    @Override
    public Done throughput(int n, long total, Duration timeout) throws InterruptedException {
        if (senders.size() != n) {
            senders.forEach(ActorRef::stop);
            List<ActorRef<Object>> s = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                s.add(system.spawn(sender(i, receiver)));
            }
            senders = List.copyOf(s);
        }
        receiver.tell(new GStart(total, senders, collector));
        Ready ready = RemoteSide.take(inbox, Ready.class, timeout, "gmp4j: the receiver's Ready");
        if (ready.total() != total) {
            throw new IllegalStateException("receiver ready for " + ready.total() + " messages, not " + total);
        }
        for (ActorRef<Object> s : senders) {
            s.tell(new Go(total / n, FlowControl.window(n)));
        }
        return RemoteSide.take(inbox, Done.class, timeout, "gmp4j: the receiver's Done (a message lost?)");
    }

    @Override
    public BlockingQueue<Terminal> watchPonger(Duration timeout) throws InterruptedException {
        BlockingQueue<Terminal> died = new LinkedBlockingQueue<>();
        ActorRef<Object> target = ponger;
        system.spawn(Behavior.<Object>setup(ctx -> {
            try {
                ctx.watch(target);
            } catch (RuntimeException e) {
                inbox.add(e);
                return Behavior.stopped();
            }
            target.tell(new GHello(ctx.self()));
            target.tell(new Ping(-1));
            return (c, m) -> {
                switch (m) {
                    case Terminated t -> {
                        died.add(new Terminal(System.nanoTime(), String.valueOf(t.reason())));
                        return Behavior.stopped();
                    }
                    case Pong p -> inbox.add(p);
                    default -> inbox.add(new IllegalStateException("watcher: unexpected " + m));
                }
                return Behavior.same();
            };
        }));
        RemoteSide.take(inbox, Pong.class, timeout, "gmp4j: the watcher's round trip");
        return died;
    }

    @Override
    public void close() {
        try {
            node.close();
        } finally {
            system.close();
        }
    }

    // =====================================================================================
    // The peer
    // =====================================================================================

    /**
     * The peer's node: joins cluster {@code args[0]} on Hazelcast port {@code args[1]} through
     * member {@code args[2]}, registers "ponger" and "receiver"; returns its ready info and what
     * closes it.
     */
    static RemotePeer.Served servePeer(List<String> args) {
        if (args.size() != 3) {
            throw new IllegalArgumentException("gmp4j peer: need <cluster> <hazelcast port> <member>, got " + args);
        }
        ActorSystem system = ActorSystem.create("remote-peer");
        ClusterNode node;
        try {
            node = ClusterNode.join(system, config(args.get(0), Integer.parseInt(args.get(1)), List.of(args.get(2))));
            node.register("ponger", system.spawn(ponger()));
            node.register("receiver", system.spawn(receiver()));
        } catch (RuntimeException e) {
            system.close();
            throw e;
        }
        return new RemotePeer.Served(node.nodeId(), () -> {
            try {
                node.close();
            } finally {
                system.close();
            }
        });
    }

    /** Answers each Ping with its Pong to the pinger of the last Hello. */
    private static Behavior<Object> ponger() {
        @SuppressWarnings("unchecked")
        ActorRef<Object>[] to = new ActorRef[1];
        return (ctx, m) -> {
            switch (m) {
                case GHello h -> to[0] = h.replyTo();
                case Ping p -> to[0].tell(new Pong(p.seq()));
                default -> throw new IllegalArgumentException("ponger: unexpected " + m);
            }
            return Behavior.same();
        };
    }

    /** Counts each run's Data exactly ({@link FlowControl.Tally}), acknowledges, reports Done. */
    private static Behavior<Object> receiver() {
        FlowControl.Tally tally = new FlowControl.Tally();
        Object[] run = new Object[1]; // the GStart of the run
        return (ctx, m) -> {
            switch (m) {
                case GStart s -> {
                    tally.reset(s.total(), s.senders().size());
                    run[0] = s;
                    s.doneTo().tell(new Ready(s.total()));
                }
                case Data d -> {
                    GStart s = (GStart) run[0];
                    long ack = tally.onData(d.sender(), d.seq());
                    if (ack >= 0) {
                        s.senders().get(d.sender()).tell(new Ack(d.sender(), ack));
                    }
                    if (tally.justCompleted()) {
                        s.doneTo().tell(new Done(tally.received(), tally.errors()));
                    }
                }
                default -> throw new IllegalArgumentException("receiver: unexpected " + m);
            }
            return Behavior.same();
        };
    }
}
