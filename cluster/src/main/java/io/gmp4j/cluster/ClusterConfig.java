package io.gmp4j.cluster;

import io.gmp4j.Tunable;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * How a {@link ClusterNode} joins: the cluster's name, this node's address and ports, the
 * members to contact, how long to wait, and the message types allowed on the wire. The defaults
 * work on one machine with nothing configured: cluster {@code gmp4j} on 127.0.0.1, Hazelcast
 * port 5701 (the next free one above it if taken), members {@code 127.0.0.1}, an event-bus port
 * the system picks, 30 s to join. The system properties {@code gmp4j.cluster.name},
 * {@code gmp4j.cluster.host}, {@code gmp4j.cluster.port}, {@code gmp4j.cluster.members}
 * (comma-separated {@code host[:port]}) and {@code gmp4j.cluster.failureTimeout} (seconds)
 * replace the defaults; the builder's setters replace both.
 *
 * <pre>{@code
 * ClusterConfig config = ClusterConfig.builder()
 *         .clusterName("chat")
 *         .members(List.of("10.0.0.5:5701", "10.0.0.6"))
 *         .allow(Join.class, Say.class)
 *         .build();
 * }</pre>
 */
public final class ClusterConfig {
    /** The system property that names the cluster. */
    public static final String NAME_PROPERTY = Tunable.CLUSTER_NAME.property();
    /** The system property with this node's host (a local interface address). */
    public static final String HOST_PROPERTY = Tunable.CLUSTER_HOST.property();
    /** The system property with this node's Hazelcast port. */
    public static final String PORT_PROPERTY = Tunable.CLUSTER_PORT.property();
    /** The system property with the members to contact, comma-separated host[:port]. */
    public static final String MEMBERS_PROPERTY = Tunable.CLUSTER_MEMBERS.property();
    /** The system property with the failure timeout in whole seconds (see {@link #failureTimeout()}). */
    public static final String FAILURE_TIMEOUT_PROPERTY = Tunable.CLUSTER_FAILURE_TIMEOUT.property();

    private final String clusterName;
    private final String host;
    private final int hazelcastPort;
    private final List<String> members;
    private final int eventBusPort;
    private final Duration joinTimeout;
    private final Duration failureTimeout;
    private final int outboundLimit;
    private final List<Class<?>> allowed;

    private ClusterConfig(Builder b) {
        this.clusterName = b.clusterName;
        this.host = b.host;
        this.hazelcastPort = b.hazelcastPort;
        this.members = List.copyOf(b.members);
        this.eventBusPort = b.eventBusPort;
        this.joinTimeout = b.joinTimeout;
        this.failureTimeout = b.failureTimeout;
        this.outboundLimit = b.outboundLimit;
        this.allowed = List.copyOf(b.allowed);
    }

    /**
     * A builder holding the defaults, with the {@code gmp4j.cluster.*} system properties read.
     *
     * <pre>{@code
     * ClusterConfig c = ClusterConfig.builder().build();
     * }</pre>
     */
    public static Builder builder() {
        Builder b = new Builder();
        String v = System.getProperty(NAME_PROPERTY);
        if (v != null) {
            b.clusterName = v;
        }
        v = System.getProperty(HOST_PROPERTY);
        if (v != null) {
            b.host = v;
        }
        v = System.getProperty(PORT_PROPERTY);
        if (v != null) {
            b.hazelcastPort = parsePort(PORT_PROPERTY, v);
        }
        v = System.getProperty(MEMBERS_PROPERTY);
        if (v != null) {
            b.members = new ArrayList<>();
            for (String m : v.split(",")) {
                b.members.add(m.strip());
            }
        }
        v = System.getProperty(FAILURE_TIMEOUT_PROPERTY);
        if (v != null) {
            try {
                b.failureTimeout = Duration.ofSeconds(Long.parseLong(v.strip()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(FAILURE_TIMEOUT_PROPERTY + ": not a number of seconds: '" + v + "'");
            }
        }
        return b;
    }

    /** The cluster's name: nodes of differently named clusters never join each other. */
    public String clusterName() {
        return clusterName;
    }

    /** This node's address: Hazelcast and the event bus bind to it and announce it. */
    public String host() {
        return host;
    }

    /** This node's first Hazelcast port; the next free ones above it are tried if it is taken. */
    public int hazelcastPort() {
        return hazelcastPort;
    }

    /** The members to contact on joining, each {@code host} or {@code host:port}. */
    public List<String> members() {
        return members;
    }

    /** The event bus's port; 0: one the system picks. */
    public int eventBusPort() {
        return eventBusPort;
    }

    /** How long {@link ClusterNode#join} waits for the cluster. */
    public Duration joinTimeout() {
        return joinTimeout;
    }

    /**
     * How long a member may stay silent before the others count it as gone (Hazelcast's
     * {@code hazelcast.max.no.heartbeat.seconds}, whole seconds; members send a heartbeat every
     * second). A killed node is seen as gone within about this time: its watchers get
     * {@code Terminated} with a {@link NodeDownException}.
     */
    public Duration failureTimeout() {
        return failureTimeout;
    }

    /**
     * The most messages to one node between their senders and the wire (see
     * {@link Builder#outboundLimit}).
     */
    public int outboundLimit() {
        return outboundLimit;
    }

    /** The record and enum types allowed on the wire from the start. */
    public List<Class<?>> allowed() {
        return allowed;
    }

    @Override
    public String toString() {
        return "ClusterConfig[name=" + clusterName + ", host=" + host + ", port=" + hazelcastPort
                + ", members=" + members + ", eventBusPort=" + eventBusPort + ", joinTimeout=" + joinTimeout
                + ", failureTimeout=" + failureTimeout + ", outboundLimit=" + outboundLimit + "]";
    }

    private static int parsePort(String setting, String v) {
        int p;
        try {
            p = Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(setting + ": not a port number: '" + v + "'");
        }
        checkPort(setting, p, 1);
        return p;
    }

    private static void checkPort(String setting, int p, int min) {
        if (p < min || p > 65535) {
            throw new IllegalArgumentException(setting + ": port out of range " + min + "..65535: " + p);
        }
    }

    /** Checks one {@code host[:port]} member entry. */
    static void checkMember(String m) {
        if (m == null || m.isBlank()) {
            throw new IllegalArgumentException("members: blank member entry");
        }
        String s = m.strip();
        int colon = s.lastIndexOf(':');
        String hostPart = colon < 0 ? s : s.substring(0, colon);
        if (hostPart.isEmpty() || hostPart.chars().anyMatch(c -> Character.isWhitespace(c) || c == ',' || c == ':')) {
            throw new IllegalArgumentException("members: not host[:port]: '" + m + "'");
        }
        if (colon >= 0) {
            parsePort("members: port of '" + m + "'", s.substring(colon + 1));
        }
    }

    /** Checks that {@code host} names an address of one of this machine's interfaces. */
    static void checkLocalHost(String host) {
        InetAddress a;
        try {
            a = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("host: unknown host '" + host + "'");
        }
        try {
            if (!a.isLoopbackAddress() && NetworkInterface.getByInetAddress(a) == null) {
                throw new IllegalArgumentException("host: '" + host + "' (" + a.getHostAddress()
                        + ") is not an address of a local network interface");
            }
        } catch (SocketException e) {
            throw new IllegalArgumentException("host: cannot read the local interfaces to check '" + host + "': " + e);
        }
    }

    /**
     * Builds a {@link ClusterConfig}; {@link #build()} checks every setting.
     *
     * <pre>{@code
     * ClusterConfig c = ClusterConfig.builder().hazelcastPort(5801).build();
     * }</pre>
     */
    public static final class Builder {
        private String clusterName = "gmp4j";
        private String host = "127.0.0.1";
        private int hazelcastPort = 5701;
        private List<String> members = new ArrayList<>(List.of("127.0.0.1"));
        private int eventBusPort = 0;
        private Duration joinTimeout = Duration.ofSeconds(30);
        private Duration failureTimeout = Duration.ofSeconds(5);
        private int outboundLimit = 8192;
        private final List<Class<?>> allowed = new ArrayList<>();

        private Builder() {
        }

        /** The cluster's name; not blank. */
        public Builder clusterName(String name) {
            this.clusterName = name;
            return this;
        }

        /** This node's address; one of this machine's interface addresses. */
        public Builder host(String host) {
            this.host = host;
            return this;
        }

        /** This node's first Hazelcast port, 1..65535. */
        public Builder hazelcastPort(int port) {
            this.hazelcastPort = port;
            return this;
        }

        /** The members to contact, each {@code host} or {@code host:port}; not empty. */
        public Builder members(List<String> members) {
            this.members = new ArrayList<>(Objects.requireNonNull(members, "members"));
            return this;
        }

        /** The event bus's port, 0..65535 (0: one the system picks). */
        public Builder eventBusPort(int port) {
            this.eventBusPort = port;
            return this;
        }

        /** How long joining may take; positive. */
        public Builder joinTimeout(Duration timeout) {
            this.joinTimeout = timeout;
            return this;
        }

        /**
         * How long a silent member counts as alive: 1 s or more, whole seconds (default 5 s).
         * Shorter detects a killed node sooner; too short counts a paused one (a long GC) as
         * gone.
         */
        public Builder failureTimeout(Duration timeout) {
            this.failureTimeout = timeout;
            return this;
        }

        /**
         * The most messages to one node that may be between their senders and the wire, 1 or
         * more (default 8192). At the bound, a goroutine or thread that tells an actor of that
         * node parks until the node's connection takes more (only sends to that node wait);
         * code that must not park (a behaviour actor, a Vert.x event loop) has its message
         * dropped instead, counted by {@link ClusterNode#droppedCount()}.
         */
        public Builder outboundLimit(int limit) {
            this.outboundLimit = limit;
            return this;
        }

        /**
         * Allows records and enums of these types on the wire (see {@link WireCodec#register}).
         * Every node that receives them must allow them too.
         */
        public Builder allow(Class<?>... types) {
            allowed.addAll(Arrays.asList(types));
            return this;
        }

        /**
         * Checks the settings and builds.
         *
         * @throws IllegalArgumentException naming the setting and the value that is wrong
         */
        public ClusterConfig build() {
            if (clusterName == null || clusterName.isBlank()) {
                throw new IllegalArgumentException("clusterName: must not be blank, got '" + clusterName + "'");
            }
            if (host == null || host.isBlank()) {
                throw new IllegalArgumentException("host: must not be blank, got '" + host + "'");
            }
            checkLocalHost(host);
            checkPort("hazelcastPort", hazelcastPort, 1);
            checkPort("eventBusPort", eventBusPort, 0);
            if (members.isEmpty()) {
                throw new IllegalArgumentException("members: must not be empty");
            }
            for (String m : members) {
                checkMember(m);
            }
            if (joinTimeout == null || joinTimeout.isNegative() || joinTimeout.isZero()) {
                throw new IllegalArgumentException("joinTimeout: must be positive, got " + joinTimeout);
            }
            if (failureTimeout == null || failureTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("failureTimeout: must be at least 1 s, got " + failureTimeout);
            }
            if (outboundLimit < 1) {
                throw new IllegalArgumentException("outboundLimit: must be at least 1, got " + outboundLimit);
            }
            for (Class<?> c : allowed) {
                if (c == null || !(c.isRecord() || c.isEnum())) {
                    throw new IllegalArgumentException("allow: only records and enums can be allowed, got " + c
                            + " (register a codec for other types with node.codecs().register(type, encoder, decoder))");
                }
            }
            return new ClusterConfig(this);
        }
    }
}
