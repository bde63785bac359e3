package io.gmp4j.agent;

import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code gmp4j-agent} Java agent: loop preemption for goroutines that never call into
 * gmp4j. Started with the package prefixes whose classes it instruments:
 * <pre>
 * java -javaagent:gmp4j-agent.jar=com.example.,org.foo.,-com.example.simd. ...
 * </pre>
 * Each loop back-edge of those classes gets a call to
 * {@code io.gmp4j.runtime.LoopPreempt.poll()} (but for leaf loops counted up to an array's
 * length, unless {@code -Dgmp4j.arrayloops=check}): one volatile read while no preempt request is
 * pending, a yield as {@code Go.gosched()} does when sysmon asked the running goroutine's P
 * (see {@link BackEdgeTransformer}). The JDK's classes and gmp4j's are never instrumented: a
 * prefix inside {@code java.}, {@code javax.}, {@code jdk.}, {@code sun.}, {@code com.sun.}
 * or {@code io.gmp4j.} is refused; a broader one ({@code io.}) skips them, and says so.
 *
 * <p>Loaded at start-up ({@code Premain-Class}) it sees every class of those packages as it
 * loads. Attached to a running JVM ({@code Agent-Class}) it also retransforms the matching
 * classes already loaded; their frames already running keep the old code until they return.
 */
public final class PreemptAgent {
    /** Package roots never instrumented: the JDK's and gmp4j's own (the agent's included). */
    static final List<String> PROTECTED = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.", "io.gmp4j.");

    /**
     * The system property that decides whether leaf loops counted up to an array's length get a
     * check: {@code skip} (the default: they end within the array's length, and the JIT can
     * vectorise them) or {@code check}.
     */
    static final String ARRAY_LOOPS = "gmp4j.arrayloops";

    private static final List<BackEdgeTransformer> INSTALLED = new ArrayList<>();

    private PreemptAgent() {
    }

    /** {@code -javaagent:gmp4j-agent.jar=PREFIXES}: instruments the classes loaded from now on. */
    public static void premain(String args, Instrumentation inst) {
        install(args, inst, false);
    }

    /** Dynamic attach: also retransforms the matching classes already loaded. */
    public static void agentmain(String args, Instrumentation inst) {
        install(args, inst, true);
    }

    private static void install(String args, Instrumentation inst, boolean retransformLoaded) {
        List<String> prefixes = parsePrefixes(args);
        for (String p : prefixes) {
            for (String root : PROTECTED) {
                if (!p.startsWith("-") && root.startsWith(p)) {
                    System.err.println("gmp4j-agent: prefix '" + p + "' also covers " + root
                            + " whose classes are never instrumented (the JDK's and gmp4j's own)");
                }
            }
        }
        BackEdgeTransformer t = new BackEdgeTransformer(prefixes, checkArrayLoops(System.getProperty(ARRAY_LOOPS)));
        synchronized (INSTALLED) {
            INSTALLED.add(t);
        }
        inst.addTransformer(t, retransformLoaded);
        if (retransformLoaded) {
            List<Class<?>> todo = new ArrayList<>();
            for (Class<?> c : inst.getAllLoadedClasses()) {
                if (inst.isModifiableClass(c) && !c.isHidden() && t.covers(c.getName().replace('.', '/'))) {
                    todo.add(c);
                }
            }
            if (!todo.isEmpty()) {
                try {
                    inst.retransformClasses(todo.toArray(new Class<?>[0]));
                } catch (UnmodifiableClassException e) {
                    throw new IllegalStateException("gmp4j-agent: cannot retransform " + e.getMessage(), e);
                }
            }
        }
    }

    /**
     * {@value #ARRAY_LOOPS}'s value: true for {@code check}, false for {@code skip} or none.
     *
     * @throws IllegalArgumentException for any other value, naming the two
     */
    static boolean checkArrayLoops(String value) {
        if (value == null || value.equals("skip")) {
            return false;
        }
        if (value.equals("check")) {
            return true;
        }
        throw new IllegalArgumentException("gmp4j-agent: -D" + ARRAY_LOOPS + "=" + value
                + " is neither 'skip' (the default: leaf loops over an array's length get no check) nor 'check'");
    }

    /**
     * The agent's argument: package prefixes, comma-separated, each ending in a dot
     * ({@code com.example.}) or naming one class ({@code com.example.Main}); one that starts
     * with {@code -} excludes what it covers ({@code -com.example.simd.}: loops the JIT
     * vectorises that are not leaf loops over an array's length, which a check at each
     * back-edge keeps scalar).
     *
     * @throws IllegalArgumentException with the reason, for a missing or empty argument, an
     *                                  empty or malformed prefix, or one inside a protected root
     */
    static List<String> parsePrefixes(String args) {
        if (args == null || args.isBlank()) {
            throw new IllegalArgumentException("gmp4j-agent needs the package prefixes to instrument: "
                    + "-javaagent:gmp4j-agent.jar=com.example.,org.foo.");
        }
        List<String> out = new ArrayList<>();
        boolean anyInclude = false;
        for (String raw : args.split(",", -1)) {
            String p = raw.trim();
            boolean exclude = p.startsWith("-");
            if (exclude) {
                p = p.substring(1).trim();
            }
            if (p.isEmpty()) {
                throw new IllegalArgumentException("gmp4j-agent: empty package prefix in '" + args + "'");
            }
            if (!p.matches("[\\p{javaJavaIdentifierPart}.$]+") || p.startsWith(".") || p.contains("..")) {
                throw new IllegalArgumentException("gmp4j-agent: '" + p + "' is not a package prefix (e.g. com.example.)");
            }
            if (exclude) {
                out.add("-" + p);
                continue;
            }
            for (String root : PROTECTED) {
                if (p.startsWith(root) || (p + ".").equals(root)) {
                    throw new IllegalArgumentException("gmp4j-agent: refusing to instrument '" + p
                            + "': the classes under " + root + " (the JDK's and gmp4j's own) are never instrumented");
                }
            }
            out.add(p);
            anyInclude = true;
        }
        if (!anyInclude) {
            throw new IllegalArgumentException("gmp4j-agent: '" + args + "' names no package to instrument, only exclusions");
        }
        return List.copyOf(out);
    }

    /** Back-edges instrumented so far by every installed transformer (for tests and diagnostics). */
    public static long instrumentedBackEdges() {
        long n = 0;
        synchronized (INSTALLED) {
            for (BackEdgeTransformer t : INSTALLED) {
                n += t.backEdges();
            }
        }
        return n;
    }
}
