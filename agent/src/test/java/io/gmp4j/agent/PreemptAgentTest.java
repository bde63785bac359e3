package io.gmp4j.agent;

import agenttest.Loops;
import io.gmp4j.TestSupport;
import io.gmp4j.TestSupport.ChildRun;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The agent's argument and the transformer, in this JVM (no agent loaded here). */
class PreemptAgentTest {

    @Test
    void parsesPrefixes() {
        assertEquals(List.of("com.example.", "org.foo.Main"), PreemptAgent.parsePrefixes("com.example., org.foo.Main"));
    }

    @Test
    void refusesTheJdksAndGmp4jsPackages() {
        for (String p : List.of("java.", "java.util.", "javax.swing.", "jdk.internal.", "sun.misc.", "com.sun.net.",
                "io.gmp4j.", "io.gmp4j.runtime.", "io.gmp4j", "io.gmp4j.chan.Chan")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> PreemptAgent.parsePrefixes("com.example.," + p), p);
            assertTrue(e.getMessage().contains("refusing to instrument '" + p + "'"), e.getMessage());
        }
    }

    @Test
    void refusesAMissingOrMalformedArgument() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PreemptAgent.parsePrefixes(null))
                .getMessage().contains("needs the package prefixes"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PreemptAgent.parsePrefixes("com.a.,,b."))
                .getMessage().contains("empty package prefix"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PreemptAgent.parsePrefixes("com/a"))
                .getMessage().contains("is not a package prefix"));
    }

    @Test
    void excludesWhatAMinusPrefixCovers() {
        BackEdgeTransformer t = new BackEdgeTransformer(PreemptAgent.parsePrefixes("com.example.,-com.example.simd."));
        assertTrue(t.covers("com/example/Main"));
        assertTrue(!t.covers("com/example/simd/Kernels"));
        assertTrue(!t.covers("org/other/Main"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PreemptAgent.parsePrefixes("-com.example."))
                .getMessage().contains("names no package to instrument"));
    }

    @Test
    void aBroaderPrefixStillSkipsProtectedClasses() {
        BackEdgeTransformer t = new BackEdgeTransformer(PreemptAgent.parsePrefixes("io.,agenttest."));
        assertTrue(t.covers("io/netty/Foo"));
        assertTrue(t.covers("agenttest/Loops"));
        assertTrue(!t.covers("io/gmp4j/runtime/Scheduler"));
        assertTrue(!t.covers("io/gmp4j/Go"));
        assertTrue(!t.covers("java/util/ArrayList"));
    }

    @Test
    void aChildJvmWithAProtectedPrefixFailsToStartAndSaysWhy() throws Exception {
        ChildRun run = TestSupport.runChildJvm(List.of(), List.of("-javaagent:" + AgentJvm.agentJar() + "=io.gmp4j.runtime."),
                PreemptAgentTest.class);
        assertNotEquals(0, run.exit(), run.output());
        assertTrue(run.output().contains("refusing to instrument 'io.gmp4j.runtime.'"), run.output());
    }

    /** Instruments Loops' bytes, loads them in a loader of their own and compares the results. */
    @Test
    void theInstrumentedClassComputesTheSameResults() throws Exception {
        BackEdgeTransformer t = new BackEdgeTransformer(List.of("agenttest."));
        byte[] original;
        try (InputStream in = Loops.class.getResourceAsStream("Loops.class")) {
            original = in.readAllBytes();
        }
        byte[] instrumented = t.instrument(original);
        assertTrue(t.backEdges() >= 14, "back-edges: " + t.backEdges());
        assertEquals(1, t.arrayLoopsSkipped(), "arraySum's loop over a.length has no check");
        Class<?> copy = AgentJvm.copyOf(Loops.class, instrumented);
        assertNotEquals(Loops.class, copy);
        Method all = copy.getMethod("all", int.class);
        for (int scale : new int[]{0, 1, 7, 60}) {
            assertEquals(Loops.all(scale), all.invoke(null, scale), "scale " + scale);
        }
        assertEquals(countPolls(original), 0);
        assertEquals(countPolls(instrumented), t.backEdges());
    }

    @Test
    void aClassWithoutLoopsIsLeftAsItWas() throws Exception {
        byte[] original;
        try (InputStream in = AgentJvm.class.getResourceAsStream("AgentJvm.class")) {
            original = in.readAllBytes();
        }
        assertNull(new BackEdgeTransformer(List.of("io.")).instrument(original));
    }

    /** Calls to LoopPreempt.poll in a class file, counted by ASM. */
    private static long countPolls(byte[] classfile) {
        List<Long> n = new ArrayList<>(List.of(0L));
        new org.objectweb.asm.ClassReader(classfile).accept(new org.objectweb.asm.ClassVisitor(org.objectweb.asm.Opcodes.ASM9) {
            @Override
            public org.objectweb.asm.MethodVisitor visitMethod(int a, String name, String d, String s, String[] e) {
                return new org.objectweb.asm.MethodVisitor(org.objectweb.asm.Opcodes.ASM9) {
                    @Override
                    public void visitMethodInsn(int op, String owner, String mname, String desc, boolean itf) {
                        if (owner.equals(BackEdgeTransformer.OWNER) && mname.equals(BackEdgeTransformer.POLL)) {
                            n.set(0, n.get(0) + 1);
                        }
                    }
                };
            }
        }, 0);
        return n.get(0);
    }

    /** The child of {@link #aChildJvmWithAProtectedPrefixFailsToStartAndSaysWhy}: never reached. */
    public static void main(String[] args) {
        System.out.println("started");
    }
}
