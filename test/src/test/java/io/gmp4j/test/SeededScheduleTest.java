package io.gmp4j.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gmp4j.Go;
import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.Select;
import io.gmp4j.sync.WaitGroup;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A seeded runtime at GOMAXPROCS 1 replays its interleaving: the same seed gives the identical
 * trace (which goroutine ran when, and which select case each chose), other seeds other traces.
 */
class SeededScheduleTest {
    static final int WORKERS = 4;
    static final int ROUNDS = 40;

    /**
     * Workers that each select over three always-ready channels and yield after every choice
     * (so that they interleave), and pass a token around a ring of unbuffered channels every
     * fourth round: the trace is the order of their steps and what each one took.
     */
    static List<String> trace(long seed) {
        List<String> trace = new ArrayList<>();
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).seed(seed).name("seeded").build()) {
            rt.main(() -> trace.addAll(workload()));
        }
        return trace;
    }

    /** The workload, run by the calling goroutine: its trace. */
    static List<String> workload() {
        List<String> trace = Collections.synchronizedList(new ArrayList<>());
        List<Chan<Integer>> sources = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            Chan<Integer> ch = new Chan<>(WORKERS * ROUNDS);
            for (int v = 0; v < WORKERS * ROUNDS; v++) {
                ch.send(c * 1000 + v);
            }
            sources.add(ch);
        }
        List<Chan<Integer>> ring = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            ring.add(new Chan<>());
        }
        WaitGroup wg = new WaitGroup();
        for (int w = 0; w < WORKERS; w++) {
            int id = w;
            wg.go(() -> {
                Select s = new Select();
                for (int r = 0; r < ROUNDS; r++) {
                    s.reset();
                    for (Chan<Integer> ch : sources) {
                        s.recv(ch);
                    }
                    int fired = s.select();
                    trace.add(id + ":" + fired + "=" + s.value());
                    if (r % 4 == 3) {
                        // the ring: worker 0 starts the token, each passes it on
                        if (id == 0) {
                            ring.get(1).send(r);
                            trace.add("0 got " + ring.get(0).recv());
                        } else {
                            int t = ring.get(id).recv();
                            ring.get((id + 1) % WORKERS).send(t);
                        }
                    }
                    Go.gosched();
                }
            });
        }
        wg.await();
        return trace;
    }

    @Test
    void theSameSeedGivesTheSameInterleavingAndOtherSeedsOthers() {
        List<String> first = trace(1234L);
        assertEquals(WORKERS * ROUNDS + ROUNDS / 4, first.size());
        for (int i = 0; i < 5; i++) {
            assertEquals(first, trace(1234L), "replay " + i + " of seed 1234 differs");
        }
        Set<List<String>> others = new HashSet<>();
        for (long seed = 1; seed <= 5; seed++) {
            others.add(trace(seed));
        }
        others.remove(first);
        assertTrue(others.size() >= 4, "five other seeds gave " + others.size() + " traces other than seed 1234's");
        assertNotEquals(trace(1L), trace(2L));
    }
}
