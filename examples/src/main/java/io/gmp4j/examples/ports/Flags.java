package io.gmp4j.examples.ports;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The part of Go's {@code flag} package the ports use, so their {@code main}s read like Go's:
 * {@code n := flag.Int("n", 10, "primes to print")} is
 * {@code Supplier<Integer> n = flags.intFlag("n", 10, "primes to print")}, and
 * {@code flag.Parse()} is {@code flags.parse(args)}. A flag is written {@code -name value},
 * {@code -name=value} or with two dashes; the arguments after the flags are {@link #args()}.
 * Durations use Go's syntax ({@code 1m30s}, {@code 250ms}).
 */
public final class Flags {
    private record Flag<T>(String usage, T defaultValue, Function<String, T> parser, Object[] value) {
    }

    private static final Pattern DURATION_PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");

    private final String program;
    private final Map<String, Flag<?>> flags = new LinkedHashMap<>();
    private final List<String> rest = new ArrayList<>();

    /** Flags of the program {@code program} (the name in its usage line). */
    public Flags(String program) {
        this.program = program;
    }

    /** Go's {@code flag.Int}: an int flag; its value once {@link #parse} ran. */
    public Supplier<Integer> intFlag(String name, int defaultValue, String usage) {
        return define(name, defaultValue, usage, Integer::parseInt);
    }

    /** Go's {@code flag.Duration}: a duration flag in Go's syntax ({@code 10s}, {@code 1m30s}). */
    public Supplier<Duration> durationFlag(String name, Duration defaultValue, String usage) {
        return define(name, defaultValue, usage, Flags::parseDuration);
    }

    @SuppressWarnings("unchecked")
    private <T> Supplier<T> define(String name, T defaultValue, String usage, Function<String, T> parser) {
        Flag<T> f = new Flag<>(usage, defaultValue, parser, new Object[] {defaultValue});
        if (flags.putIfAbsent(name, f) != null) {
            throw new IllegalArgumentException(program + ": flag redefined: " + name);
        }
        return () -> (T) f.value()[0];
    }

    /**
     * Go's {@code flag.Parse()}: sets the flags from {@code args}; what follows them (from the
     * first argument that is not a flag, or after {@code --}) becomes {@link #args()}.
     *
     * @throws IllegalArgumentException for an unknown flag, a missing or malformed value; the
     *     message names the flag, and {@link #usage()} says what is allowed
     */
    public void parse(String[] args) {
        int i = 0;
        for (; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--")) {
                i++;
                break;
            }
            if (!a.startsWith("-") || a.equals("-")) {
                break;
            }
            String name = a.replaceFirst("^--?", "");
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            Flag<?> f = flags.get(name);
            if (f == null) {
                throw new IllegalArgumentException("flag provided but not defined: -" + name);
            }
            if (value == null) {
                if (i + 1 == args.length) {
                    throw new IllegalArgumentException("flag needs an argument: -" + name);
                }
                value = args[++i];
            }
            try {
                f.value()[0] = f.parser().apply(value);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("invalid value \"" + value + "\" for flag -" + name);
            }
        }
        for (; i < args.length; i++) {
            rest.add(args[i]);
        }
    }

    /** Go's {@code flag.Args()}: the arguments after the flags. */
    public List<String> args() {
        return List.copyOf(rest);
    }

    /** Go's {@code flag.Usage} text: one line per flag with its default. */
    public String usage() {
        StringBuilder b = new StringBuilder("usage: ./gmp4j run ").append(program).append(" [flags]\n");
        flags.forEach((name, f) -> b.append(String.format("  -%s (default %s)%n      %s%n",
                name, f.defaultValue() instanceof Duration d ? format(d) : f.defaultValue(), f.usage())));
        return b.toString();
    }

    /**
     * {@link #parse}, then on a bad argument prints the error and the usage and exits with
     * status 2, as Go's {@code flag.ExitOnError} does; {@code -h} prints the usage and exits 0.
     */
    public void parseOrExit(String[] args) {
        if (args.length > 0 && (args[0].equals("-h") || args[0].equals("--help"))) {
            System.out.print(usage());
            System.exit(0);
        }
        try {
            parse(args);
        } catch (IllegalArgumentException e) {
            exitWithUsage(e.getMessage());
        }
    }

    /** Prints {@code error} and the usage to stderr and exits with status 2 (a bad argument). */
    public void exitWithUsage(String error) {
        System.err.println(program + ": " + error);
        System.err.print(usage());
        System.exit(2);
    }

    /** Go's {@code time.ParseDuration}: {@code 300ms}, {@code 1.5s}, {@code 1m30s}, {@code 0}. */
    public static Duration parseDuration(String s) {
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = DURATION_PART.matcher(s);
        long nanos = 0;
        int end = 0;
        while (m.find() && m.start() == end) {
            double n = Double.parseDouble(m.group(1));
            long unit = switch (m.group(2)) {
                case "ns" -> 1L;
                case "us", "µs" -> 1_000L;
                case "ms" -> 1_000_000L;
                case "s" -> 1_000_000_000L;
                case "m" -> 60_000_000_000L;
                default -> 3_600_000_000_000L;
            };
            nanos = Math.addExact(nanos, Math.round(n * unit));
            end = m.end();
        }
        if (end == 0 || end != s.length()) {
            throw new IllegalArgumentException("time: invalid duration \"" + s + "\"");
        }
        return Duration.ofNanos(nanos);
    }

    /** A duration as Go prints one (to the millisecond): {@code 1m0s}, {@code 1h0m30s}, {@code 250ms}. */
    public static String format(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        if (d.compareTo(Duration.ofSeconds(1)) < 0) {
            return d.toNanos() % 1_000_000 == 0 ? d.toMillis() + "ms" : d.toNanos() + "ns";
        }
        StringBuilder b = new StringBuilder();
        if (d.toHours() > 0) {
            b.append(d.toHours()).append('h');
        }
        if (d.toHours() > 0 || d.toMinutesPart() > 0) {
            b.append(d.toMinutesPart()).append('m');
        }
        b.append(d.toSecondsPart());
        if (d.toMillisPart() > 0) {
            b.append(String.format(".%03d", d.toMillisPart()).replaceAll("0+$", ""));
        }
        b.append('s');
        return b.toString();
    }
}
