package io.gmp4j.agent;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Inserts {@code invokestatic io/gmp4j/runtime/LoopPreempt.poll()V} before every backward
 * branch (a jump, conditional or not, or a switch case, to a label already visited: a loop's
 * back-edge) of the methods of the classes under its prefixes.
 *
 * <p>The inserted instruction takes no operand and pushes nothing, so the operand stack at the
 * branch, the max stack and the stack map frames (which sit at labels) stay valid: the class
 * is rewritten without computing frames, and so without loading other classes from inside the
 * transformer. A method without loops is left as it was (a recursion without loops, such as
 * {@code fib}, has no back-edge and gets no check).
 *
 * <p>Skipped: classes of the boot and platform loaders, the {@link PreemptAgent#PROTECTED}
 * roots, and classes whose loader cannot see {@code io.gmp4j.runtime.LoopPreempt} (it would
 * fail with NoClassDefFoundError at its first loop).
 */
final class BackEdgeTransformer implements ClassFileTransformer {
    static final String OWNER = "io/gmp4j/runtime/LoopPreempt";
    static final String POLL = "poll";

    private final String[] prefixes;
    private final String[] excluded;
    private final LongAdder backEdges = new LongAdder();
    /** Per loader: whether it sees LoopPreempt. Guarded by itself. */
    private final Map<ClassLoader, Boolean> seesRuntime = new WeakHashMap<>();

    BackEdgeTransformer(List<String> dottedPrefixes) {
        this.prefixes = dottedPrefixes.stream().filter(p -> !p.startsWith("-"))
                .map(p -> p.replace('.', '/')).toArray(String[]::new);
        this.excluded = dottedPrefixes.stream().filter(p -> p.startsWith("-"))
                .map(p -> p.substring(1).replace('.', '/')).toArray(String[]::new);
    }

    /** Whether the class of internal name {@code name} is under a prefix, not excluded and not protected. */
    boolean covers(String name) {
        if (name == null) {
            return false;
        }
        for (String root : PreemptAgent.PROTECTED) {
            if (name.startsWith(root.replace('.', '/'))) {
                return false;
            }
        }
        for (String x : excluded) {
            if (name.startsWith(x)) {
                return false;
            }
        }
        for (String p : prefixes) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    long backEdges() {
        return backEdges.sum();
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] classfile) {
        if (loader == null || loader == ClassLoader.getPlatformClassLoader() || !covers(className)
                || !seesRuntime(loader)) {
            return null;
        }
        try {
            return instrument(classfile);
        } catch (RuntimeException e) {
            // A transformer's exception is swallowed by the JVM: say which class stays as it was.
            System.err.println("gmp4j-agent: left " + className.replace('/', '.') + " uninstrumented: " + e);
            return null;
        }
    }

    private boolean seesRuntime(ClassLoader loader) {
        synchronized (seesRuntime) {
            return seesRuntime.computeIfAbsent(loader, l -> l.getResource(OWNER + ".class") != null);
        }
    }

    /** The class with the check before each back-edge, or null when it has none. */
    byte[] instrument(byte[] classfile) {
        ClassReader cr = new ClassReader(classfile);
        ClassWriter cw = new ClassWriter(cr, 0);
        long[] inserted = new long[1];
        cr.accept(new ClassVisitor(Opcodes.ASM9, cw) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exc) {
                return new BackEdges(super.visitMethod(access, name, desc, sig, exc), inserted);
            }
        }, 0);
        if (inserted[0] == 0) {
            return null;
        }
        backEdges.add(inserted[0]);
        return cw.toByteArray();
    }

    /** A method's visitor that marks labels as seen and checks before a branch to a seen one. */
    private static final class BackEdges extends MethodVisitor {
        private final Set<Label> seen = new HashSet<>();
        private final long[] inserted;

        BackEdges(MethodVisitor mv, long[] inserted) {
            super(Opcodes.ASM9, mv);
            this.inserted = inserted;
        }

        @Override
        public void visitLabel(Label label) {
            seen.add(label);
            super.visitLabel(label);
        }

        @Override
        public void visitJumpInsn(int opcode, Label label) {
            if (seen.contains(label)) {
                check();
            }
            super.visitJumpInsn(opcode, label);
        }

        @Override
        public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
            if (anySeen(dflt, labels)) {
                check();
            }
            super.visitTableSwitchInsn(min, max, dflt, labels);
        }

        @Override
        public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
            if (anySeen(dflt, labels)) {
                check();
            }
            super.visitLookupSwitchInsn(dflt, keys, labels);
        }

        private boolean anySeen(Label dflt, Label[] labels) {
            if (seen.contains(dflt)) {
                return true;
            }
            for (Label l : labels) {
                if (seen.contains(l)) {
                    return true;
                }
            }
            return false;
        }

        private void check() {
            super.visitMethodInsn(Opcodes.INVOKESTATIC, OWNER, POLL, "()V", false);
            inserted[0]++;
        }
    }
}
