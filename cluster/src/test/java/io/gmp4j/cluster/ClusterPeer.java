package io.gmp4j.cluster;

import io.gmp4j.actor.ActorContext;
import io.gmp4j.actor.ActorRef;
import io.gmp4j.actor.ActorSystem;
import io.gmp4j.actor.Behavior;
import io.gmp4j.actor.Terminated;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.HashMap;
import java.util.Map;

/**
 * A peer node of {@link ClusterThreeNodesTest} in a child JVM: joins with the gmp4j.cluster.*
 * properties and registers {@code <tag>.echo} (a process actor: it may wait on the cluster) and
 * {@code <tag>.counter} ({@code tag} from the property gmp4j.test.tag), prints "READY nodeId";
 * closes its node cleanly when its stdin closes.
 */
public final class ClusterPeer {
    private ClusterPeer() {
    }

    public static void main(String[] args) {
        String tag = System.getProperty("gmp4j.test.tag", "peer");
        try (ActorSystem system = ActorSystem.create(tag)) {
            ClusterNode node = ClusterNode.join(system, ClusterConfig.builder().allow(Msgs.ALL).build());
            node.register(tag + ".echo", system.<Object>spawnProcess(self -> {
                while (true) {
                    switch (self.receive()) {
                        case Msgs.Echo e -> e.replyTo().tell(e.text());
                        case Msgs.Relay r -> r.to().tell(r.msg());
                        case Msgs.Spawn s -> {
                            node.register(s.name(), self.spawn(victim(s.name())));
                            s.replyTo().tell("spawned");
                        }
                        case Msgs.WatchFor w -> {
                            // A setup runs on the actor's first turn: wait for it, so what comes
                            // next to this process (a barrier) is handled after the watch is on.
                            ActorRef<Object> me = self.self();
                            self.spawn(Behavior.setup((ActorContext<Object> ctx) -> {
                                me.tell(SET_UP);
                                return watcher(w.target(), w.reportTo(), ctx);
                            }));
                            self.receive(SET_UP::equals);
                        }
                        case Msgs.LinkFor l -> {
                            ActorRef<Object> me = self.self();
                            node.register(l.name(), self.spawn(Behavior.<Object>setup(ctx -> {
                                ctx.link(l.target());
                                me.tell(SET_UP);
                                return (c, x) -> Behavior.same();
                            })));
                            self.receive(SET_UP::equals);
                            l.replyTo().tell("linked");
                        }
                        case Msgs.BlastFor b -> Thread.ofPlatform().name("blast-" + b.sender()).start(() -> blast(b));
                        case Object m -> throw new IllegalArgumentException("echo: unexpected " + m);
                    }
                }
            }));
            node.register(tag + ".counter", system.spawn(counter()));
            System.out.println("READY " + node.nodeId());
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
            while (in.readLine() != null) {
                // a line changes nothing: only the end of stdin does
            }
            node.close();
            System.out.println("CLOSED");
            System.out.flush();
        } catch (Throwable t) {
            t.printStackTrace(System.out);
            System.out.flush();
            System.exit(2);
        }
        System.exit(0);
    }

    /** Answers an Echo, throws on "crash", stops on "stop". */
    static Behavior<Object> victim(String name) {
        return (ctx, m) -> {
            if (m instanceof Msgs.Echo e) {
                e.replyTo().tell(e.text());
            } else if ("crash".equals(m)) {
                throw new IllegalStateException("boom in " + name);
            } else if ("stop".equals(m)) {
                return Behavior.stopped();
            }
            return Behavior.same();
        };
    }

    private static final String SET_UP = "set up";

    /** Watches {@code target}; tells {@code reportTo} the Down it sees, then stops. */
    static Behavior<Object> watcher(ActorRef<Object> target, ActorRef<Object> reportTo, ActorContext<Object> ctx) {
        ctx.watch(target);
        return (c, m) -> {
            if (m instanceof Terminated t) {
                reportTo.tell(new Msgs.Down(t.ref().name(), Msgs.reasonKind(t.reason()),
                        t.reason() == null ? null : t.reason().getMessage()));
                return Behavior.stopped();
            }
            return Behavior.same();
        };
    }

    /** Per sender: the next seq expected, the out-of-order count, the last seq. */
    static Behavior<Object> counter() {
        Map<String, long[]> seen = new HashMap<>();
        return (ctx, m) -> {
            switch (m) {
                case Msgs.Count c -> counted(seen, c.sender(), c.seq());
                case Msgs.Padded c -> counted(seen, c.sender(), c.seq());
                case Msgs.CountReport r -> {
                    long[] s = seen.getOrDefault(r.sender(), new long[] {0, 0, -1});
                    r.replyTo().tell(new Msgs.Counted(s[0], s[1], (int) s[2]));
                }
                default -> throw new IllegalArgumentException("counter: unexpected " + m);
            }
            return Behavior.same();
        };
    }

    /** One message {@code seq} from {@code sender}: in order if it is the next one expected. */
    private static void counted(Map<String, long[]> seen, String sender, int seq) {
        long[] s = seen.computeIfAbsent(sender, k -> new long[3]);
        if (seq == s[0]) {
            s[0]++;
        } else {
            s[1]++;
        }
        s[2] = seq;
    }

    /** Sends Counts from this platform thread until the time is up, then reports how many. */
    static void blast(Msgs.BlastFor b) {
        long end = System.nanoTime() + b.millis() * 1_000_000L;
        int seq = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 100; i++) {
                b.counter().tell(new Msgs.Count(b.sender(), seq++));
            }
        }
        b.replyTo().tell(new Msgs.Sent(b.sender(), seq));
    }
}
