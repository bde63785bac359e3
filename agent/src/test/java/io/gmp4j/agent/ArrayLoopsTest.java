package io.gmp4j.agent;

import agenttest.LoopShapes;
import io.gmp4j.TestSupport;
import io.gmp4j.TestSupport.ChildRun;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
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
        assertEquals(19, methods);
        assertEquals(1, polls.get("checkLoopInside"), "checkLoopInside: its outer loop only");
        assertEquals(6, t.arrayLoopsSkipped(), "four skip* loops and the inner ones of nestedOneCheck and checkLoopInside");
    }

    /**
     * Bytecode javac does not write: a loop over an array inside a try whose handler sits before
     * the loop, resets the index and falls into the loop's head. A throw in the body closes a
     * loop with no branch, so the loop keeps its check and the handler gets one.
     */
    @Test
    void aHandlerBeforeTheLoopThatLeadsBackIntoItKeepsTheLoopsCheckAndGetsOne() throws Exception {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V21, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, "agenttest/HandlerCycle", null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "spin", "([II)J", null, null);
        mv.visitCode();
        Label handler = new Label();
        Label head = new Label();
        Label exit = new Label();
        mv.visitTryCatchBlock(head, exit, handler, "java/lang/ArithmeticException");
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitVarInsn(Opcodes.ISTORE, 2);
        mv.visitJumpInsn(Opcodes.GOTO, head);
        mv.visitLabel(handler); // i = 0, and on into the head
        mv.visitInsn(Opcodes.POP);
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitVarInsn(Opcodes.ISTORE, 2);
        mv.visitLabel(head); // for (; i < a.length; i++) { 1 / (i - k); }
        mv.visitVarInsn(Opcodes.ILOAD, 2);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitInsn(Opcodes.ARRAYLENGTH);
        mv.visitJumpInsn(Opcodes.IF_ICMPGE, exit);
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitVarInsn(Opcodes.ILOAD, 2);
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitInsn(Opcodes.ISUB);
        mv.visitInsn(Opcodes.IDIV);
        mv.visitInsn(Opcodes.POP);
        mv.visitIincInsn(2, 1);
        mv.visitJumpInsn(Opcodes.GOTO, head);
        mv.visitLabel(exit);
        mv.visitVarInsn(Opcodes.ILOAD, 2);
        mv.visitInsn(Opcodes.I2L);
        mv.visitInsn(Opcodes.LRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        BackEdgeTransformer t = new BackEdgeTransformer(List.of("agenttest."));
        byte[] instrumented = t.instrument(cw.toByteArray());
        assertEquals(2, pollsByMethod(instrumented).get("spin"), "the loop's back-edge and the handler");
        assertEquals(0, t.arrayLoopsSkipped());
        // It still verifies and runs: no k in the array's range, so no throw, and the loop ends.
        Method spin = defineAlone("agenttest.HandlerCycle", instrumented).getMethod("spin", int[].class, int.class);
        assertEquals(5L, spin.invoke(null, new int[5], -1));
    }

    private static Class<?> defineAlone(String name, byte[] bytes) {
        return new ClassLoader(ArrayLoopsTest.class.getClassLoader()) {
            Class<?> define() {
                return defineClass(name, bytes, 0, bytes.length);
            }
        }.define();
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
