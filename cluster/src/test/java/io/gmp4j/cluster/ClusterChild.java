package io.gmp4j.cluster;

import io.gmp4j.actor.ActorSystem;
import io.gmp4j.actor.Behavior;
import io.gmp4j.runtime.Scheduler;

/**
 * The other node of {@link ClusterNodesTest}, in a child JVM: joins with the gmp4j.cluster.*
 * properties, registers "echo", "counter" and "probe", prints "READY nodeId"; closes its node when
 * its stdin closes, or exits without closing it on the line "exit".
 */
public final class ClusterChild {
    private ClusterChild() {
    }

    public static void main(String[] args) throws Exception {
        try (ActorSystem system = ActorSystem.create("child")) {
            ClusterNode node = ClusterNode.join(system, ClusterConfig.builder().allow(Msgs.ALL).build());
            node.register("echo", system.<Object>spawn((ctx, m) -> {
                switch (m) {
                    case Msgs.Echo e -> e.replyTo().tell(e.text());
                    case Msgs.Forward f -> f.to().tell(f.text().toUpperCase());
                    case Msgs.WhereAmI w -> w.replyTo().tell(new Msgs.Where(Thread.currentThread().getName(), Scheduler.runningOnM()));
                    default -> throw new IllegalArgumentException("echo: unexpected " + m);
                }
                return Behavior.same();
            }));
            node.register("counter", system.spawn(ClusterPeer.counter()));
            node.register("probe", system.<Msgs.Probe>spawn((ctx, p) -> {
                p.replyTo().tell(new Msgs.Probed(String.valueOf(System.getProperty(GADGET_INITIALIZED)),
                        String.valueOf(System.getProperty(GADGET_CONSTRUCTED)), node.refusedCount(), node.deliveredCount()));
                return Behavior.same();
            }));
            System.out.println("READY " + node.nodeId());
            System.out.flush();
            java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
            for (String line; (line = in.readLine()) != null; ) {
                if (line.equals("exit")) {
                    // No close: Hazelcast's shutdown hook leaves; the survivors must remove our names.
                    System.out.println("EXITING");
                    System.out.flush();
                    System.exit(0);
                }
            }
            node.close(); // stdin closed: leave cleanly
            System.out.println("CLOSED");
        } catch (Throwable t) {
            t.printStackTrace(System.out);
            System.out.flush();
            System.exit(2);
        }
        System.exit(0);
    }

    // The gadget's property names, copied: reading Gadget's constants would initialize it.
    static final String GADGET_INITIALIZED = "gmp4j.test.gadget.initialized";
    static final String GADGET_CONSTRUCTED = "gmp4j.test.gadget.constructed";
}
