package io.gmp4j.cluster;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.gmp4j.actor.ActorRef;
import io.gmp4j.actor.ActorSystem;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * What the tests with real cluster nodes in other JVMs ({@link PeerProcess}) share: a cluster
 * name and a Hazelcast base port of their own, so that parallel runs never meet; the lookup of
 * an actor that must be remote; the peers' output, printed when a test fails; and the closing
 * of all the nodes at the end.
 */
final class ClusterTests {
    private ClusterTests() {
    }

    /** {@code prefix} and eight random hex digits. */
    static String uniqueClusterName(String prefix) {
        return prefix + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A random Hazelcast base port in 20000..39999; a test's nodes take ports above it. */
    static int randomBasePort() {
        return 20000 + ThreadLocalRandom.current().nextInt(20000);
    }

    /** The actor registered as {@code name} in {@code node}'s cluster, which must be on another node. */
    static <T> ActorRef<T> remote(ClusterNode node, String name) {
        ActorRef<T> ref = node.<T>lookup(name).orElseThrow(() -> new AssertionError("no '" + name + "' in the cluster"));
        assertInstanceOf(RemoteRef.class, ref);
        return ref;
    }

    /** Closes the peers, then this JVM's node, then its actor system; each that was never started ({@code null}) is skipped. */
    static void closeAll(List<PeerProcess> peers, ClusterNode node, ActorSystem system) {
        for (PeerProcess p : peers) {
            p.close();
        }
        if (node != null) {
            node.close();
        }
        if (system != null) {
            system.close();
        }
    }

    /** A watcher (for {@code @RegisterExtension}) that prints the output of every peer {@code peers} gives when a test fails. */
    static TestWatcher printPeerOutputOnFailure(Supplier<List<PeerProcess>> peers) {
        return new TestWatcher() {
            @Override
            public void testFailed(ExtensionContext context, Throwable cause) {
                for (PeerProcess p : peers.get()) {
                    System.err.println("--- peer " + p.tag + " output ---\n" + p.out + "--- end of peer " + p.tag + " ---");
                }
            }
        };
    }
}
