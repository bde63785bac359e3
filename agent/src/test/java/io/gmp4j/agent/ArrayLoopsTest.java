package io.gmp4j.agent;

import agenttest.LoopShapes;
import io.gmp4j.TestSupport;
import io.gmp4j.TestSupport.ChildRun;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which loops {@link ArrayLoops} leaves without a check, and that results stay the same. */
class ArrayLoopsTest {
    private static byte[] shapes() throws Exception {
        try (InputStream in = LoopShapes.class.getResourceAsStream("LoopShapes.class")) {
            return in.readAllBytes();
        }
    }

    @Test
    void leafLoopsOverAnArraysLengthGetNoCheckAndEveryOtherLoopKeepsIt() throws Exception {
        BackEdgeTransformer t = new BackEdgeTransformer(List.of("agenttest."));
        Map<String, Integer> polls = pollsByMethod(t.instrument(shapes()));
        int methods = 0;
        for (Method m : LoopShapes.class.getDeclaredMethods()) {
            int n = polls.getOrDefault(m.getName(), 0);
            if (m.getName().startsWith("skip")) {
                assertEquals(0, n, m.getName() + " got a check");
            } else if (m.getName().startsWith("check")) {
                assertTrue(n >= 1, m.getName() + " lost its check");
            } else {
                assertEquals(1, n, m.getName() + ": only the outer loop has a check");
            }
            methods++;
        }
        assertEquals(17, methods);
        assertEquals(1, polls.get("checkLoopInside"), "checkLoopInside: its outer loop only");
        assertEquals(6, t.arrayLoopsSkipped(), "four skip* loops and the inner ones of nestedOneCheck and checkLoopInside");
    }

    @Test
    void askedToCheckThemTooEveryLoopGetsACheck() throws Exception {
        BackEdgeTransformer t = new BackEdgeTransformer(List.of("agenttest."), true);
        Map<String, Integer> polls = pollsByMethod(t.instrument(shapes()));
        for (Method m : LoopShapes.class.getDeclaredMethods()) {
            assertTrue(polls.getOrDefault(m.getName(), 0) >= 1, m.getName());
        }
        assertEquals(2, polls.get("nestedOneCheck"));
        assertEquals(0, t.arrayLoopsSkipped());
    }

    @Test
    void theSystemPropertyTakesSkipOrCheckAndNothingElse() {
        assertFalse(PreemptAgent.checkArrayLoops(null));
        assertFalse(PreemptAgent.checkArrayLoops("skip"));
        assertTrue(PreemptAgent.checkArrayLoops("check"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PreemptAgent.checkArrayLoops("off"));
        assertTrue(e.getMessage().contains("-Dgmp4j.arrayloops=off") && e.getMessage().contains("'check'"), e.getMessage());
    }

    @Test
    void aChildJvmWithABadValueFailsToStartAndSaysWhy() throws Exception {
        ChildRun run = TestSupport.runChildJvm(List.of(),
                List.of("-Dgmp4j.arrayloops=maybe", "-javaagent:" + AgentJvm.agentJar() + "=agenttest."),
                PreemptAgentTest.class);
        assertTrue(run.exit() != 0, run.output());
        assertTrue(run.output().contains("-Dgmp4j.arrayloops=maybe is neither"), run.output());
    }

    @Test
    void everyShapeComputesTheSameInstrumented() throws Exception {
        byte[] instrumented = new BackEdgeTransformer(List.of("agenttest.")).instrument(shapes());
        Class<?> copy = AgentJvm.copyOf(LoopShapes.class, instrumented);
        int[] a = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5};
        for (Method m : LoopShapes.class.getDeclaredMethods()) {
            Object[] args = switch (m.getParameterCount()) {
                case 1 -> new Object[]{a.clone()};
                case 2 -> m.getParameterTypes()[1] == int.class ? new Object[]{a.clone(), 25}
                        : new Object[]{a.clone(), new int[a.length]};
                default -> throw new AssertionError(m);
            };
            Object[] same = args.clone();
            for (int k = 0; k < same.length; k++) {
                if (same[k] instanceof int[] arr) {
                    same[k] = arr.clone();
                }
            }
            Object plain = m.invoke(null, args);
            Object viaAgent = copy.getMethod(m.getName(), m.getParameterTypes()).invoke(null, same);
            assertEquals(plain, viaAgent, m.getName());
        }
    }

    /** Calls to LoopPreempt.poll per method name. */
    private static Map<String, Integer> pollsByMethod(byte[] classfile) {
        Map<String, Integer> n = new HashMap<>();
        new ClassReader(classfile).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exc) {
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMethodInsn(int op, String owner, String mname, String d, boolean itf) {
                        if (owner.equals(BackEdgeTransformer.OWNER) && mname.equals(BackEdgeTransformer.POLL)) {
                            n.merge(name, 1, Integer::sum);
                        }
                    }
                };
            }
        }, 0);
        return n;
    }
}
