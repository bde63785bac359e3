package io.gmp4j.agent;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Inserts {@code invokestatic io/gmp4j/runtime/LoopPreempt.poll()V} before every backward
 * branch (a jump, conditional or not, or a switch case, to an instruction at or before it: a
 * loop's back-edge) of the methods of the classes under its prefixes, but for the back-edges of
 * leaf loops counted up to an array's length ({@link ArrayLoops}), unless asked to check those
 * too; and at the start of an exception handler placed at or before the end of the code it
 * covers (a loop closed by a throw).
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
    /** Whether {@link ArrayLoops}' loops get a check too ({@code -Dgmp4j.arrayloops=check}). */
    private final boolean checkArrayLoops;
    private final LongAdder backEdges = new LongAdder();
    private final LongAdder arrayLoopsSkipped = new LongAdder();
    /** Per loader: whether it sees LoopPreempt. Guarded by itself. */
    private final Map<ClassLoader, Boolean> seesRuntime = new WeakHashMap<>();

    BackEdgeTransformer(List<String> dottedPrefixes) {
        this(dottedPrefixes, false);
    }

    BackEdgeTransformer(List<String> dottedPrefixes, boolean checkArrayLoops) {
        this.checkArrayLoops = checkArrayLoops;
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

    /** Checks inserted so far. */
    long backEdges() {
        return backEdges.sum();
    }

    /** Back-edges left without a check so far: leaf loops counted up to an array's length ({@link ArrayLoops}). */
    long arrayLoopsSkipped() {
        return arrayLoopsSkipped.sum();
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

    /** The class with the check before each back-edge that needs one, or null when none does. */
    byte[] instrument(byte[] classfile) {
        ClassReader cr = new ClassReader(classfile);
        ClassNode cn = new ClassNode(Opcodes.ASM9);
        cr.accept(cn, 0); // frames kept as they are: the inserted call changes no stack or local
        long inserted = 0;
        long skipped = 0;
        for (MethodNode m : cn.methods) {
            InsnList code = m.instructions;
            if (code.size() == 0) {
                continue;
            }
            ArrayLoops arrayLoops = null; // built at the method's first back-edge, if any
            List<AbstractInsnNode> edges = new ArrayList<>();
            for (AbstractInsnNode insn = code.getFirst(); insn != null; insn = insn.getNext()) {
                if (!backEdge(code, insn)) {
                    continue;
                }
                if (!checkArrayLoops && insn instanceof JumpInsnNode j) {
                    if (arrayLoops == null) {
                        arrayLoops = new ArrayLoops(m);
                    }
                    if (arrayLoops.bounded(j)) {
                        skipped++;
                        continue;
                    }
                }
                edges.add(insn);
            }
            // A handler at or before the end of the code it covers can close a loop with no
            // branch at all (a throw in that code, the handler, back into it): it gets the check
            // as its first instruction, after its label and frame. javac puts handlers after
            // their code, but for a synchronized block's own cleanup, which this also checks.
            Set<LabelNode> handlers = new HashSet<>();
            for (TryCatchBlockNode b : m.tryCatchBlocks) {
                if (code.indexOf(b.handler) <= code.indexOf(b.end) && handlers.add(b.handler)) {
                    AbstractInsnNode first = b.handler.getNext();
                    while (first != null && first.getOpcode() < 0) {
                        first = first.getNext();
                    }
                    if (first != null) {
                        edges.add(first);
                    }
                }
            }
            for (AbstractInsnNode edge : edges) {
                code.insertBefore(edge, new MethodInsnNode(Opcodes.INVOKESTATIC, OWNER, POLL, "()V", false));
            }
            inserted += edges.size();
        }
        arrayLoopsSkipped.add(skipped);
        if (inserted == 0) {
            return null;
        }
        backEdges.add(inserted);
        ClassWriter cw = new ClassWriter(cr, 0);
        cn.accept(cw);
        return cw.toByteArray();
    }

    /** A jump, conditional or not, or a switch with a case, to an instruction at or before it. */
    private static boolean backEdge(InsnList code, AbstractInsnNode insn) {
        int at = code.indexOf(insn);
        if (insn instanceof JumpInsnNode j) {
            return code.indexOf(j.label) <= at;
        }
        List<LabelNode> targets;
        LabelNode dflt;
        if (insn instanceof TableSwitchInsnNode s) {
            targets = s.labels;
            dflt = s.dflt;
        } else if (insn instanceof LookupSwitchInsnNode s) {
            targets = s.labels;
            dflt = s.dflt;
        } else {
            return false;
        }
        if (code.indexOf(dflt) <= at) {
            return true;
        }
        for (LabelNode l : targets) {
            if (code.indexOf(l) <= at) {
                return true;
            }
        }
        return false;
    }
}
