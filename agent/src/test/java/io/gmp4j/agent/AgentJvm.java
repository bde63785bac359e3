package io.gmp4j.agent;

import io.gmp4j.TestSupport;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * Child JVMs with the agent. The agent jar here holds only the manifest: its Premain-Class
 * loads from the test's class path (this module's classes and ASM, unshaded), which the child
 * shares, so the tests run in the test phase, before the shaded jar is packaged.
 */
final class AgentJvm {
    /** The prefix of the test workloads ({@code agenttest}), outside the protected roots. */
    static final String PREFIX = "agenttest.";
    private static Path jar;

    private AgentJvm() {
    }

    static synchronized Path agentJar() throws IOException {
        if (jar == null) {
            Path dir = Path.of(System.getProperty("user.dir"), "target");
            Files.createDirectories(dir);
            Path j = dir.resolve("test-agent.jar");
            Manifest mf = new Manifest();
            mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            mf.getMainAttributes().putValue("Premain-Class", PreemptAgent.class.getName());
            try (OutputStream out = Files.newOutputStream(j); JarOutputStream jo = new JarOutputStream(out, mf)) {
                jo.flush();
            }
            jar = j;
        }
        return jar;
    }

    /** Runs {@code main} with {@code args} at procs 1; with the agent on {@code agentArgs} unless null. */
    static TestSupport.ChildRun run(String agentArgs, boolean handoff, Class<?> main, String... args)
            throws IOException, InterruptedException {
        List<String> flags = new ArrayList<>(TestSupport.GMP4J_JVM_FLAGS);
        if (agentArgs != null) {
            flags.add("-javaagent:" + agentJar() + "=" + agentArgs);
            flags.add("-Dagenttest.instrumented=true");
        }
        if (!handoff) {
            flags.add("-Dgmp4j.preempthandoff=false");
        }
        // runChildJvm appends -cp and the main class: the main's arguments ride in a property.
        flags.add("-Dagenttest.args=" + String.join(",", args));
        return TestSupport.runChildJvm(List.of(), flags, main);
    }

    /**
     * {@code original}'s class defined again from {@code bytes} (its instrumented copy) in a
     * loader of its own, which asks its parent for every other class.
     */
    static Class<?> copyOf(Class<?> original, byte[] bytes) throws ClassNotFoundException {
        ClassLoader loader = new ClassLoader(original.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (name.equals(original.getName())) {
                    synchronized (getClassLoadingLock(name)) {
                        Class<?> c = findLoadedClass(name);
                        return c != null ? c : defineClass(name, bytes, 0, bytes.length);
                    }
                }
                return super.loadClass(name, resolve);
            }
        };
        return loader.loadClass(original.getName());
    }
}
