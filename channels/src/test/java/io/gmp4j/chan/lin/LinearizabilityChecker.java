package io.gmp4j.chan.lin;

import io.gmp4j.chan.lin.History.Op;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Wing &amp; Gong's linearizability check with memoization (as in Lowe's and Horn &amp; Kroening's
 * refinements): depth-first search for a sequential order of the operations that respects
 * real time (an operation that responded before another was invoked comes first) and that
 * {@link ChanModel} accepts, result by result. States already explored, as the pair (set of
 * operations placed, model state), are not explored again. Histories of up to 63 operations.
 */
final class LinearizabilityChecker {
    private final Op[] ops;
    private final long all;
    private final Set<Visited> visited = new HashSet<>();
    private final List<String> order = new ArrayList<>();

    private record Visited(long done, ChanModel state) {
    }

    private LinearizabilityChecker(List<Op> ops) {
        if (ops.size() > 63) {
            throw new IllegalArgumentException("history too long: " + ops.size());
        }
        this.ops = ops.toArray(new Op[0]);
        this.all = ops.size() == 63 ? Long.MAX_VALUE : (1L << ops.size()) - 1;
    }

    /**
     * A witness order if the history is linearizable for a channel of capacity {@code cap},
     * else null.
     */
    static List<String> linearize(History h, int cap) {
        LinearizabilityChecker c = new LinearizabilityChecker(h.ops());
        return c.search(0, ChanModel.empty(cap)) ? c.order.reversed() : null;
    }

    private boolean search(long done, ChanModel s) {
        if (done == all) {
            return true;
        }
        if (!visited.add(new Visited(done, s))) {
            return false;
        }
        // An operation may go next only if no other pending operation responded before it was
        // invoked: its invocation precedes the earliest response among the pending ones.
        long minResp = Long.MAX_VALUE;
        for (int i = 0; i < ops.length; i++) {
            if ((done & (1L << i)) == 0) {
                minResp = Math.min(minResp, ops[i].resp());
            }
        }
        for (int i = 0; i < ops.length; i++) {
            long bi = 1L << i;
            if ((done & bi) != 0 || ops[i].inv() > minResp) {
                continue;
            }
            ChanModel next = s.apply(ops[i]);
            if (next != null && search(done | bi, next)) {
                order.add(ops[i].toString());
                return true;
            }
            // Unbuffered: a send and a receive that complete each other, placed as one step.
            if (s.cap() == 0) {
                for (int j = 0; j < ops.length; j++) {
                    long bj = 1L << j;
                    if (j == i || (done & bj) != 0 || ops[j].inv() > minResp) {
                        continue;
                    }
                    if (s.rendezvous(ops[i], ops[j]) && search(done | bi | bj, s)) {
                        order.add(ops[i] + "  <=>  " + ops[j]);
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
