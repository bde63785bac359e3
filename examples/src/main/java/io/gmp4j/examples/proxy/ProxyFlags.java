package io.gmp4j.examples.proxy;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The command line of {@code ./gmp4j run proxy}: flags to a {@link ProxyConfig}. Every mistake
 * is an {@link IllegalArgumentException} whose message says which flag and what is wrong; the
 * caller prints it with {@link #USAGE} and exits with status 2.
 */
public final class ProxyFlags {
    /** The usage text. */
    public static final String USAGE = """
            usage: ./gmp4j run proxy --upstream HOST:PORT[,HOST:PORT...] [flags]
              --listen HOST:PORT        address to listen on (default 127.0.0.1:9000; :PORT for all interfaces)
              --upstream LIST           comma-separated upstreams, tried round-robin with failover (required)
              --max-conns N             most client connections at once; more wait to be accepted (default 1024; 0: no limit)
              --connect-timeout D       time to connect to one upstream before trying the next (default 5s)
              --idle-timeout D          close a connection with no bytes either way for D (default 5m; 0: never)
              --stats-interval D        print a stats line every D (default 10s; 0: never)
            durations: 300ms, 5s, 2m, 1h (a bare number is seconds)""";

    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)?");

    private ProxyFlags() {
    }

    /**
     * Parses {@code --flag value} and {@code --flag=value} pairs.
     *
     * @throws IllegalArgumentException for an unknown flag, a missing or bad value, or a missing
     *                                  {@code --upstream}
     */
    public static ProxyConfig parse(String[] args) {
        InetSocketAddress listen = address("--listen", "127.0.0.1:9000", true);
        List<InetSocketAddress> upstreams = null;
        int maxConns = ProxyConfig.DEFAULT_MAX_CONNS;
        Duration connect = ProxyConfig.DEFAULT_CONNECT_TIMEOUT;
        Duration idle = ProxyConfig.DEFAULT_IDLE_TIMEOUT;
        Duration stats = ProxyConfig.DEFAULT_STATS_INTERVAL;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            String value = null;
            int eq = flag.indexOf('=');
            if (flag.startsWith("--") && eq > 0) {
                value = flag.substring(eq + 1);
                flag = flag.substring(0, eq);
            }
            if (!isKnown(flag)) {
                throw new IllegalArgumentException("unknown flag " + args[i]);
            }
            if (value == null) {
                if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
                    throw new IllegalArgumentException(flag + " needs a value");
                }
                value = args[++i];
            }
            switch (flag) {
                case "--listen" -> listen = address(flag, value, true);
                case "--upstream" -> upstreams = addresses(flag, value);
                case "--max-conns" -> maxConns = count(flag, value);
                case "--connect-timeout" -> connect = duration(flag, value);
                case "--idle-timeout" -> idle = duration(flag, value);
                case "--stats-interval" -> stats = duration(flag, value);
                default -> throw new AssertionError(flag);
            }
        }
        if (upstreams == null) {
            throw new IllegalArgumentException("missing --upstream (one or more HOST:PORT, comma-separated)");
        }
        return new ProxyConfig(listen, upstreams, maxConns, connect, idle, stats);
    }

    private static boolean isKnown(String flag) {
        return switch (flag) {
            case "--listen", "--upstream", "--max-conns", "--connect-timeout", "--idle-timeout", "--stats-interval" -> true;
            default -> false;
        };
    }

    /** {@code host:port}, {@code [v6]:port}, or (if {@code listening}) {@code :port} for every interface. */
    static InetSocketAddress address(String flag, String s, boolean listening) {
        int colon = s.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException(flag + ": '" + s + "' is not HOST:PORT (missing port)");
        }
        String host = s.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(s.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + ": '" + s + "' has no port number after the ':'");
        }
        if (port < (listening ? 0 : 1) || port > 65535) {
            throw new IllegalArgumentException(flag + ": port " + port + " out of range in '" + s + "'");
        }
        if (host.isEmpty()) {
            if (!listening) {
                throw new IllegalArgumentException(flag + ": '" + s + "' has no host");
            }
            return new InetSocketAddress(port);
        }
        InetSocketAddress a = new InetSocketAddress(host, port); // resolves the name
        if (a.isUnresolved()) {
            throw new IllegalArgumentException(flag + ": cannot resolve host '" + host + "'");
        }
        return a;
    }

    private static List<InetSocketAddress> addresses(String flag, String list) {
        List<InetSocketAddress> out = new ArrayList<>();
        for (String s : list.split(",", -1)) {
            if (s.isBlank()) {
                throw new IllegalArgumentException(flag + ": empty entry in '" + list + "'");
            }
            out.add(address(flag, s.strip(), false));
        }
        return out;
    }

    private static int count(String flag, String s) {
        try {
            int n = Integer.parseInt(s);
            if (n < 0) {
                throw new IllegalArgumentException(flag + " must be >= 0, got " + n);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + ": '" + s + "' is not a number");
        }
    }

    /** {@code 300ms}, {@code 5s}, {@code 2m}, {@code 1h}, or a bare number of seconds. */
    static Duration duration(String flag, String s) {
        Matcher m = DURATION.matcher(s);
        if (!m.matches()) {
            throw new IllegalArgumentException(flag + ": '" + s + "' is not a duration (300ms, 5s, 2m, 1h or 0)");
        }
        long n;
        try {
            n = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + ": '" + s + "' is too large");
        }
        String unit = m.group(2) == null ? "s" : m.group(2);
        try {
            return switch (unit) {
                case "ms" -> Duration.ofMillis(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofSeconds(n);
            };
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(flag + ": '" + s + "' is too large");
        }
    }

    /** The inverse of {@link #duration}: 5m, 30s, 300ms. */
    static String formatDuration(Duration d) {
        long ms = d.toMillis();
        if (ms == 0 && !d.isZero()) {
            return d.toNanos() + "ns";
        }
        if (ms % 3_600_000 == 0 && ms > 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms % 60_000 == 0 && ms > 0) {
            return ms / 60_000 + "m";
        }
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }
}
