package io.gmp4j;

/**
 * Every system property gmp4j reads, with its default and meaning: the one list of the
 * tunables. Each module reads its own through this list ({@link #value()} and the typed
 * readers), so a property cannot exist without an entry here; {@code ./gmp4j config} prints the
 * list with the values this JVM sees ({@link #main}). The benchmark harness's own properties
 * ({@code gmp4j.bench.*}) are not tunables of the library and are listed in
 * {@code benchmarks/README.md}.
 *
 * <pre>{@code
 * int procs = Tunable.MAXPROCS.intValue(Runtime.getRuntime().availableProcessors());
 * }</pre>
 */
public enum Tunable {
    /** GOMAXPROCS of a runtime whose builder does not set it. */
    MAXPROCS("gmp4j.maxprocs", "`GOMAXPROCS`, else the available processors",
            "GOMAXPROCS of a runtime whose builder does not set `maxProcs`"),
    /** Go's schedtrace period. */
    SCHEDTRACE("gmp4j.schedtrace", "`0` (off)", "print Go's schedtrace line to stderr every N ms"),
    /** Go's scheddetail. */
    SCHEDDETAIL("gmp4j.scheddetail", "`false`", "add the scheduler's counters to each schedtrace line"),
    /** Go's debug.SetMaxThreads. */
    MAXTHREADS("gmp4j.maxthreads", "`10000`", "the most Ms (Go's `debug.SetMaxThreads`)"),
    /** The most Ms started for handed-off Ps. */
    MAXHANDOFFTHREADS("gmp4j.maxhandoffthreads", "`256`", "the most Ms started to take Ps handed off from blocked goroutines"),
    /** Each P's local run queue size. */
    RUNQSIZE("gmp4j.runqsize", "`256`", "each P's local run queue, a power of two"),
    /** The goroutine registry. */
    REGISTRY("gmp4j.registry", "`true`", "the registry of live goroutines that the dump and the deadlock report read"),
    /** Go 1.26's goroutine leak profile. */
    LEAKPROFILE("gmp4j.leakprofile", "`false`",
            "keep the goroutine leak profile (`GoRuntime.leakedGoroutines`): weak registry entries"),
    /** Go's checkdead. */
    CHECKDEAD("gmp4j.checkdead", "`true`", "report \"all goroutines are asleep - deadlock!\" from `main`"),
    /** Pinned carriers. */
    PINCARRIERS("gmp4j.pincarriers", "`false`", "pin the M holding P i to the i-th allowed CPU (Linux)"),
    /** Sysmon's handoff of a P whose goroutine ignores its preempt request. */
    PREEMPTHANDOFF("gmp4j.preempthandoff", "`true`",
            "hand off the P of a goroutine that ignores its preempt request; `false`: never (with the agent alone)"),
    /** The netpoller's shape. */
    NETPOLL("gmp4j.netpoll", "`perp`", "`perp`: a Netty event loop per P; `thread`: one poller thread"),
    /** Netty's transport. */
    NETPOLL_TRANSPORT("gmp4j.netpoll.transport", "epoll when it loads", "`nio` forces Netty's NIO transport"),
    /** Goroutines writing to their sockets themselves. */
    NETPOLL_DIRECTWRITE("gmp4j.netpoll.directWrite", "`true`",
            "a goroutine writes to its socket itself (epoll); `false`: every write through the loop"),
    /** The loop's relay of Io.copy. */
    NETPOLL_RELAY("gmp4j.netpoll.relay", "`true`", "`Io.copy` between two connections of one loop is done by the loop"),
    /** The cluster's name. */
    CLUSTER_NAME("gmp4j.cluster.name", "`gmp4j`", "the cluster a `ClusterNode` joins (nodes of different names never meet)"),
    /** The cluster node's address. */
    CLUSTER_HOST("gmp4j.cluster.host", "`127.0.0.1`", "the local address Hazelcast and the event bus bind and announce"),
    /** The cluster node's Hazelcast port. */
    CLUSTER_PORT("gmp4j.cluster.port", "`5701`, else the next free", "the node's Hazelcast port"),
    /** The members a cluster node contacts. */
    CLUSTER_MEMBERS("gmp4j.cluster.members", "`127.0.0.1`", "members to contact, `host[:port],...` (TCP-IP join, no multicast)"),
    /** The cluster's failure timeout. */
    CLUSTER_FAILURE_TIMEOUT("gmp4j.cluster.failureTimeout", "`5`", "seconds a member may stay silent before it is removed");

    private final String property;
    private final String defaultValue;
    private final String meaning;

    Tunable(String property, String defaultValue, String meaning) {
        this.property = property;
        this.defaultValue = defaultValue;
        this.meaning = meaning;
    }

    /** The system property's name, e.g. {@code gmp4j.maxprocs}. */
    public String property() {
        return property;
    }

    /** What holds when the property is not set, as the README's table says it. */
    public String defaultValue() {
        return defaultValue;
    }

    /** What the property changes. */
    public String meaning() {
        return meaning;
    }

    /** The property's value in this JVM, or null when it is not set. */
    public String value() {
        return System.getProperty(property);
    }

    /** The value as an int, or {@code otherwise} when unset; a value that is no int is reported naming the property. */
    public int intValue(int otherwise) {
        String v = value();
        if (v == null) {
            return otherwise;
        }
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + property + "=" + v + ": not a whole number");
        }
    }

    /** The value as a long, or {@code otherwise} when unset; a value that is no long is reported naming the property. */
    public long longValue(long otherwise) {
        String v = value();
        if (v == null) {
            return otherwise;
        }
        try {
            return Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + property + "=" + v + ": not a whole number");
        }
    }

    /** True unless the property is {@code false} (a tunable that is on by default). */
    public boolean onUnlessFalse() {
        return !"false".equalsIgnoreCase(String.valueOf(value()).strip());
    }

    /** True only when the property is {@code true} (a tunable that is off by default). */
    public boolean onIfTrue() {
        return "true".equalsIgnoreCase(String.valueOf(value()).strip());
    }

    /**
     * Prints every tunable as a Markdown table with the value this JVM sees
     * ({@code ./gmp4j config}).
     *
     * <pre>{@code
     * Tunable.main(new String[0]);
     * }</pre>
     */
    public static void main(String[] args) {
        StringBuilder out = new StringBuilder("| property | default | set here | meaning |\n|---|---|---|---|\n");
        for (Tunable t : values()) {
            String v = t.value();
            out.append("| `").append(t.property).append("` | ").append(t.defaultValue).append(" | ")
                    .append(v == null ? "–" : "`" + v + "`").append(" | ").append(t.meaning).append(" |\n");
        }
        System.out.print(out);
        System.out.println();
        System.out.println("Set one with -D<property>=<value> on the java command line (for ./gmp4j run: GMP4J_JAVA_OPTS).");
    }

    @Override
    public String toString() {
        return property;
    }
}
