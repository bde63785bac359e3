package io.gmp4j.bench;

import io.gmp4j.bench.net.ServerMain;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How the runner starts a network benchmark server process: impl {@code go} runs the Go
 * binary's {@code <kind>-server} mode with {@code GOMAXPROCS=procs}; every other impl a
 * {@link ServerMain} JVM with the child JVM flags and the impl's procs knob
 * ({@link ChildRunner#childJvm}).
 *
 * @param java       the java binary
 * @param jvmFlags   the JVM flags every child gets
 * @param childFlags the extra child JVM flags
 * @param classpath  the benchmarks' classpath
 * @param goBinary   the Go benchmark binary, or null when there is none
 */
record ServerLauncher(String java, List<String> jvmFlags, List<String> childFlags, String classpath, Path goBinary) {
    ServerLauncher {
        jvmFlags = List.copyOf(jvmFlags);
        childFlags = List.copyOf(childFlags);
    }

    /**
     * Starts the {@code kind} server of {@code impl} with {@code procs}, passing {@code args}
     * after the procs (the proxy's upstream port), and waits until it listens.
     *
     * @throws IOException when it does not start; the message carries its last output
     */
    ServerProcess start(String kind, String impl, int procs, List<String> args, String label) throws IOException {
        List<String> cmd = new ArrayList<>();
        Map<String, String> env = Map.of();
        if (impl.equals("go")) {
            if (goBinary == null) {
                throw new IllegalStateException("no Go binary to run the go " + kind + " server");
            }
            cmd.addAll(List.of(goBinary.toString(), kind + "-server"));
            env = Map.of("GOMAXPROCS", Integer.toString(procs));
        } else {
            cmd.addAll(ChildRunner.childJvm(java, jvmFlags, impl, procs, childFlags));
            cmd.addAll(List.of("-cp", classpath, ServerMain.class.getName(), kind, impl, Integer.toString(procs)));
        }
        cmd.addAll(args);
        System.err.println("gmp4j bench: starting the " + impl + " " + kind + " server (procs=" + procs + ") ...");
        try {
            return ServerProcess.start(cmd, env, label);
        } catch (IOException e) {
            throw new IOException("the " + impl + " " + kind + " server (" + String.join(" ", cmd) + "): "
                    + e.getMessage(), e);
        }
    }
}
