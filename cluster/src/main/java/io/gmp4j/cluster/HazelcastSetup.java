package io.gmp4j.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/** The Hazelcast configuration of a node, built in code from its {@link ClusterConfig}. */
final class HazelcastSetup {
    /**
     * Held so the levels set below stay (JUL keeps loggers weakly). WARNING: errors and warnings
     * show, the start-up and membership INFO lines do not.
     */
    private static final List<Logger> QUIET = List.of(Logger.getLogger("com.hazelcast"),
            Logger.getLogger("io.vertx"), Logger.getLogger("io.netty"));
    /**
     * Hazelcast's warning that its CP subsystem is off: gmp4j does not use CP data structures.
     * SEVERE still shows.
     */
    private static final Logger CP = Logger.getLogger("com.hazelcast.cp.CPSubsystem");

    private HazelcastSetup() {
    }

    /**
     * Sets Hazelcast's, Vert.x's and Netty's loggers to WARNING unless a logging configuration
     * (java.util.logging.config.file or .class) or an explicit level says otherwise.
     */
    static void quietLogging() {
        if (System.getProperty("java.util.logging.config.file") != null
                || System.getProperty("java.util.logging.config.class") != null) {
            return;
        }
        for (Logger l : QUIET) {
            if (l.getLevel() == null) {
                l.setLevel(Level.WARNING);
            }
        }
        if (CP.getLevel() == null) {
            CP.setLevel(Level.SEVERE);
        }
    }

    /**
     * Vert.x's own maps (from its default cluster file) with our network: bind and announce
     * {@code host} only, TCP-IP join with the configured members, no multicast, no
     * auto-detection, no phone-home.
     */
    static Config hazelcastConfig(ClusterConfig c) {
        Config hz = ConfigUtil.loadConfig();
        hz.setClusterName(c.clusterName());
        hz.setProperty("hazelcast.logging.type", "jdk");
        hz.setProperty("hazelcast.phone.home.enabled", "false");
        hz.setProperty("hazelcast.socket.bind.any", "false");
        hz.getMetricsConfig().setEnabled(false); // unused; its collector also races the shutdown
        // A JVM that exits without ClusterNode.close still leaves cleanly: its map entries
        // migrate to the survivors, which then remove its names.
        hz.setProperty("hazelcast.shutdownhook.policy", "GRACEFUL");
        // Failure detection: a heartbeat every second; a member silent for failureTimeout is
        // removed, which is when watchers of its actors hear "node down".
        hz.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        hz.setProperty("hazelcast.max.no.heartbeat.seconds", Long.toString(Math.max(1, c.failureTimeout().toSeconds())));
        NetworkConfig net = hz.getNetworkConfig();
        net.setPort(c.hazelcastPort()).setPortAutoIncrement(true);
        net.getInterfaces().setEnabled(true).clear().addInterface(c.host());
        net.setPublicAddress(null);
        JoinConfig join = net.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).setMembers(c.members());
        return hz;
    }
}
