package io.gmp4j.agent;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

import java.util.ArrayList;
import java.util.List;

/**
 * The loops that get no check: a leaf loop counted up to an array's length. Such a loop ends
 * after at most as many iterations as the array has elements (when its index starts at 0), each
 * of them a bounded run of straight-line code, so it holds its P no longer than a JDK bulk
 * method on the same array ({@code Arrays.fill}, {@code System.arraycopy}), which is not
 * preempted either; and without a check in its body the JIT can vectorise it. HotSpot made the
 * same call for its own safepoint polls in counted loops before it strip-mined them. The loop
 * around it (if any) keeps its check.
 *
 * <p>A back-edge closes such a loop when all of these hold over the loop's code, from its head
 * (the back-edge's target) to the back-edge:
 * <ul>
 *   <li>no call ({@code invoke*}), monitor, array allocation, {@code jsr} or {@code ret}; no
 *       other backward branch (no loop inside, no {@code continue} to the head, no
 *       {@code continue} to an outer loop); no branch from outside into it other than at the
 *       head; no exception handler inside it, nor one before its end for code inside it;</li>
 *   <li>the test is javac's: {@code ILOAD i; bound; IF_ICMPGE exit} first thing at the head,
 *       with {@code exit} past the loop, and {@code IINC i 1; GOTO head} as its last two
 *       instructions; or the bottom-tested form, {@code IINC i 1; ILOAD i; bound; IF_ICMPLT
 *       head} (no label in between that a branch enters);</li>
 *   <li>{@code i} is written in the loop only by that {@code IINC i 1};</li>
 *   <li>{@code bound} is {@code ALOAD a; ARRAYLENGTH} with {@code a} never stored in the loop,
 *       or {@code ILOAD n} where {@code n} is not a parameter, is not stored in the loop, and
 *       every store to it in the method is of an {@code ARRAYLENGTH} that no branch joins (the
 *       enhanced {@code for} over an array).</li>
 * </ul>
 * Anything else keeps its check: the rule errs toward checking. {@code i} may start below 0, so
 * the strict bound is 2<sup>32</sup> iterations; a loop that relies on that is not one a user
 * writes by accident.
 */
final class ArrayLoops {
    private final InsnList code;
    /** Every branch of the method as (from, to) instruction indexes, handlers not included. */
    private final List<int[]> edges = new ArrayList<>();
    private final MethodNode method;
    private final int firstLocal;

    ArrayLoops(MethodNode method) {
        this.code = method.instructions;
        for (AbstractInsnNode insn = code.getFirst(); insn != null; insn = insn.getNext()) {
            int from = code.indexOf(insn);
            if (insn instanceof JumpInsnNode j) {
                edges.add(new int[]{from, code.indexOf(j.label)});
            } else if (insn instanceof TableSwitchInsnNode s) {
                edges.add(new int[]{from, code.indexOf(s.dflt)});
                s.labels.forEach(l -> edges.add(new int[]{from, code.indexOf(l)}));
            } else if (insn instanceof LookupSwitchInsnNode s) {
                edges.add(new int[]{from, code.indexOf(s.dflt)});
                s.labels.forEach(l -> edges.add(new int[]{from, code.indexOf(l)}));
            }
        }
        this.method = method;
        firstLocal = ((method.access & Opcodes.ACC_STATIC) != 0 ? 0 : 1)
                + (Type.getArgumentsAndReturnSizes(method.desc) >> 2) - 1;
    }

    /** Whether the back-edge {@code edge} (a jump to a label before it) closes a leaf loop counted up to an array's length. */
    boolean bounded(JumpInsnNode edge) {
        int head = code.indexOf(edge.label);
        int last = code.indexOf(edge);
        if (head > last || !leaf(head, last)) {
            return false;
        }
        int i;
        AbstractInsnNode boundEnd;
        if (edge.getOpcode() == Opcodes.GOTO) {
            // top-tested: head: ILOAD i; bound; IF_ICMPGE exit ... IINC i 1; GOTO head
            AbstractInsnNode load = real(edge.label, true);
            if (!(load instanceof VarInsnNode v) || v.getOpcode() != Opcodes.ILOAD) {
                return false;
            }
            i = v.var;
            boundEnd = bound(real(load, true), head, last);
            AbstractInsnNode test = boundEnd == null ? null : real(boundEnd, true);
            if (!(test instanceof JumpInsnNode t) || t.getOpcode() != Opcodes.IF_ICMPGE
                    || code.indexOf(t.label) <= last) {
                return false;
            }
            return step(real(edge, false), edge, i, head, last);
        }
        if (edge.getOpcode() == Opcodes.IF_ICMPLT) {
            // bottom-tested: IINC i 1; ILOAD i; bound; IF_ICMPLT head
            AbstractInsnNode b = real(edge, false);
            AbstractInsnNode boundStart = b instanceof VarInsnNode v && v.getOpcode() == Opcodes.ILOAD ? b
                    : b != null && b.getOpcode() == Opcodes.ARRAYLENGTH ? real(b, false) : null;
            if (boundStart == null || bound(boundStart, head, last) != b) {
                return false;
            }
            AbstractInsnNode load = real(boundStart, false);
            if (!(load instanceof VarInsnNode v) || v.getOpcode() != Opcodes.ILOAD) {
                return false;
            }
            i = v.var;
            return step(real(load, false), edge, i, head, last);
        }
        return false;
    }

    /** No call, monitor or subroutine inside; no other backward branch; entered only at the head; no handler inside. */
    private boolean leaf(int head, int last) {
        for (int k = head; k <= last; k++) {
            switch (code.get(k).getOpcode()) {
                case Opcodes.INVOKEVIRTUAL, Opcodes.INVOKESPECIAL, Opcodes.INVOKESTATIC, Opcodes.INVOKEINTERFACE,
                     Opcodes.INVOKEDYNAMIC, Opcodes.MONITORENTER, Opcodes.MONITOREXIT, Opcodes.JSR, Opcodes.RET,
                     // an array's allocation zeroes it: work that grows with its length, each iteration
                     Opcodes.NEWARRAY, Opcodes.ANEWARRAY, Opcodes.MULTIANEWARRAY -> {
                    return false;
                }
                default -> {
                }
            }
        }
        for (int[] e : edges) {
            boolean fromInside = e[0] >= head && e[0] <= last;
            if (fromInside && e[0] != last && e[1] <= e[0]) {
                return false; // another loop inside, or a continue
            }
            if (!fromInside && e[1] > head && e[1] <= last) {
                return false; // entered past its test
            }
        }
        for (TryCatchBlockNode b : method.tryCatchBlocks) {
            int h = code.indexOf(b.handler);
            boolean covers = code.indexOf(b.start) <= last && code.indexOf(b.end) > head;
            if (h <= last && (h >= head || covers)) {
                return false; // a handler inside, or one before it that may lead back into it
            }
        }
        return true;
    }

    /**
     * If {@code start} begins a bound ({@code ALOAD a; ARRAYLENGTH} with {@code a} not stored
     * in the loop, or {@code ILOAD n} of a length local), its last instruction; else null.
     */
    private AbstractInsnNode bound(AbstractInsnNode start, int head, int last) {
        if (start instanceof VarInsnNode a && a.getOpcode() == Opcodes.ALOAD) {
            AbstractInsnNode len = real(a, true);
            if (len == null || len.getOpcode() != Opcodes.ARRAYLENGTH || stores(Opcodes.ASTORE, a.var, head, last)) {
                return null;
            }
            return len;
        }
        if (start instanceof VarInsnNode n && n.getOpcode() == Opcodes.ILOAD && lengthLocal(n.var)
                && !stores(Opcodes.ISTORE, n.var, head, last)) {
            return n; // a length stored inside the loop could grow with it: n = new int[i + 2].length
        }
        return null;
    }

    /** A local that is not a parameter, never incremented, and only ever stored from an ARRAYLENGTH. */
    private boolean lengthLocal(int var) {
        if (var < firstLocal) {
            return false;
        }
        boolean stored = false;
        for (AbstractInsnNode insn = code.getFirst(); insn != null; insn = insn.getNext()) {
            if (insn instanceof IincInsnNode inc && inc.var == var) {
                return false;
            }
            if (insn instanceof VarInsnNode v && v.var == var && v.getOpcode() == Opcodes.ISTORE) {
                AbstractInsnNode before = real(v, false);
                if (before == null || before.getOpcode() != Opcodes.ARRAYLENGTH
                        || entered(code.indexOf(before), code.indexOf(v))) {
                    return false; // not only a length: n = f ? k : a.length joins at the store
                }
                stored = true;
            } else if (insn instanceof VarInsnNode v && v.var == var && v.getOpcode() != Opcodes.ILOAD) {
                return false; // the slot holds another type somewhere in the method
            }
        }
        return stored;
    }

    /**
     * Whether {@code inc} is {@code IINC i 1}, the only write to {@code i} in the loop, and
     * every path to {@code edge} passes it (no branch enters between them).
     */
    private boolean step(AbstractInsnNode inc, AbstractInsnNode edge, int i, int head, int last) {
        if (!(inc instanceof IincInsnNode s) || s.var != i || s.incr != 1) {
            return false;
        }
        if (entered(code.indexOf(inc), code.indexOf(edge))) {
            return false;
        }
        for (int k = head; k <= last; k++) {
            AbstractInsnNode insn = code.get(k);
            if (insn != inc && (insn instanceof IincInsnNode o && o.var == i
                    || insn instanceof VarInsnNode v && v.var == i && v.getOpcode() == Opcodes.ISTORE)) {
                return false;
            }
        }
        return true;
    }

    /** Whether a branch or a handler enters the code in {@code (from, to]}. */
    private boolean entered(int from, int to) {
        for (int[] e : edges) {
            if (e[1] > from && e[1] <= to) {
                return true;
            }
        }
        for (TryCatchBlockNode b : method.tryCatchBlocks) {
            int h = code.indexOf(b.handler);
            if (h > from && h <= to) {
                return true;
            }
        }
        return false;
    }

    private boolean stores(int opcode, int var, int head, int last) {
        for (int k = head; k <= last; k++) {
            if (code.get(k) instanceof VarInsnNode v && v.var == var && v.getOpcode() == opcode) {
                return true;
            }
        }
        return false;
    }

    /** The next (or previous) instruction that the JVM executes: labels, line numbers and frames skipped. */
    private static AbstractInsnNode real(AbstractInsnNode from, boolean forward) {
        AbstractInsnNode n = forward ? from.getNext() : from.getPrevious();
        while (n != null && n.getOpcode() < 0) {
            n = forward ? n.getNext() : n.getPrevious();
        }
        return n;
    }
}
