package io.gmp4j.chan;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.chan.ChanTestSupport.Group;
import io.gmp4j.runtime.G;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.gmp4j.chan.ChanTestSupport.awaitParked;
import static io.gmp4j.chan.ChanTestSupport.run;
import static io.gmp4j.chan.ChanTestSupport.runtime;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Programs of Go's {@code test/chan} directory ported line by line: {@code select3.go} (nil
 * channels, {@code select {}}, zero values of a closed channel) and {@code select.go} (a loop
 * that disables its send cases by setting their channels to nil). Go's {@code testBlock} waits
 * 0.1 s to decide that a function blocks; here the goroutine is seen parked with Go's wait
 * reason instead, and checked again at the end of the program.
 */
@ExtendWith(NoUncaughtExceptions.class)
class GoChanProgramsTest {
    private static final boolean ALWAYS = true;
    private static final boolean NEVER = false;

    private static void unreachable() {
        throw new AssertionError("control flow shouldn't reach here");
    }

    /** Go's select3.go. */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void select3(int procs) {
        try (GoRuntime rt = runtime(procs, "select3")) {
            Select3 t = new Select3(rt);
            final int async = 1; // asynchronous channels
            Chan<Integer> nilch = Chan.nil(); // var nilch chan int
            Chan<Integer> closedch = new Chan<>(0, 0); // make(chan int): int's zero value is 0
            closedch.close();

            // sending/receiving from a nil channel blocks
            t.testBlock(ALWAYS, "chan send (nil chan)", () -> nilch.send(7));
            t.testBlock(ALWAYS, "chan receive (nil chan)", nilch::recv);

            // sending/receiving from a nil channel inside a select is never selected
            t.testPanic(NEVER, () -> Select.selectOrDefault(() -> { },
                    Select.onSend(nilch, 7, GoChanProgramsTest::unreachable)));
            t.testPanic(NEVER, () -> Select.selectOrDefault(() -> { },
                    Select.onRecv(nilch, v -> unreachable())));

            // sending to an async channel with free buffer space never blocks
            t.testBlock(NEVER, null, () -> {
                Chan<Integer> ch = new Chan<>(async, 0);
                ch.send(7);
            });

            // receiving from a closed channel never blocks
            t.testBlock(NEVER, null, () -> {
                for (int i = 0; i < 10; i++) {
                    if (closedch.recv() != 0) {
                        throw new AssertionError("expected zero value when reading from closed channel");
                    }
                    Recv<Integer> xok = closedch.recvOk();
                    if (xok.value() != 0 || xok.ok()) {
                        throw new AssertionError("expected 0, false from closed channel: closedch: " + xok);
                    }
                }
            });

            // sending to a closed channel panics.
            t.testPanic(ALWAYS, () -> closedch.send(7));

            // receiving from a non-ready channel always blocks
            t.testBlock(ALWAYS, "chan receive", () -> {
                Chan<Integer> ch = new Chan<>(0, 0);
                ch.recv();
            });

            // empty selects always block
            t.testBlock(ALWAYS, "select (no cases)", Select::blockForever);

            // selects with only nil channels always block
            t.testBlock(ALWAYS, "select", () -> Select.select(
                    Select.onRecv(nilch, v -> unreachable())));
            t.testBlock(ALWAYS, "select", () -> Select.select(
                    Select.onSend(nilch, 7, GoChanProgramsTest::unreachable)));
            t.testBlock(ALWAYS, "select", () -> Select.select(
                    Select.onRecv(nilch, v -> unreachable()),
                    Select.onSend(nilch, 7, GoChanProgramsTest::unreachable)));

            // selects with non-ready non-nil channels always block
            t.testBlock(ALWAYS, "select", () -> {
                Chan<Integer> ch = new Chan<>(0, 0);
                Select.select(Select.onRecv(ch, v -> unreachable()));
            });

            // selects with default cases don't block
            t.testBlock(NEVER, null, () -> Select.selectOrDefault(() -> { }));
            t.testBlock(NEVER, null, () -> Select.selectOrDefault(() -> { },
                    Select.onRecv(nilch, v -> unreachable())));
            t.testBlock(NEVER, null, () -> Select.selectOrDefault(() -> { },
                    Select.onSend(nilch, 7, GoChanProgramsTest::unreachable)));

            // selects with ready channels don't block
            t.testBlock(NEVER, null, () -> {
                Chan<Integer> ch = new Chan<>(async, 0);
                Select.selectOrDefault(GoChanProgramsTest::unreachable, Select.onSend(ch, 7, () -> { }));
            });
            t.testBlock(NEVER, null, () -> {
                Chan<Integer> ch = new Chan<>(async, 0);
                ch.send(7);
                Select.selectOrDefault(GoChanProgramsTest::unreachable, Select.onRecv(ch, v -> { }));
            });

            // selects with closed channels behave like ordinary operations
            t.testBlock(NEVER, null, () -> Select.select(Select.onRecv(closedch, v -> { })));
            t.testBlock(NEVER, null, () -> Select.select(Select.onRecv(closedch, x -> {
                assertEquals(0, x); // _ = x, and x is int's zero value
            })));
            t.testBlock(NEVER, null, () -> Select.select(Select.onRecvOk(closedch, (x, ok) -> {
                assertEquals(0, x); // _, _ = x, ok
                assertFalse(ok);
            })));
            t.testPanic(ALWAYS, () -> Select.select(Select.onSend(closedch, 7, () -> { })));

            // select should not get confused if it sees itself
            t.testBlock(ALWAYS, "select", () -> {
                Chan<Integer> c = new Chan<>(0, 0);
                Select.select(Select.onSend(c, 1, () -> { }), Select.onRecv(c, v -> { }));
            });

            t.checkStillBlocked();
        }
    }

    /** select3.go's helpers, with the goroutines that must stay blocked kept for a last check. */
    private static final class Select3 {
        private final GoRuntime rt;
        private final List<G> blocked = new ArrayList<>();
        private final List<String> reasons = new ArrayList<>();
        private final AtomicReference<Throwable> escaped = new AtomicReference<>();

        Select3(GoRuntime rt) {
            this.rt = rt;
        }

        /** Calls f (in a goroutine) and verifies that f always/never panics depending on signal. */
        void testPanic(boolean signal, TestSupport.Body f) {
            run(rt, () -> {
                boolean panicked = false;
                try {
                    f.run();
                } catch (ChannelClosedException e) {
                    assertEquals("send on closed channel", e.getMessage());
                    panicked = true;
                }
                if (panicked != signal) {
                    fail((signal ? "function did not" : "function did") + " panic");
                }
            });
        }

        /**
         * Calls f in a goroutine and verifies that f always/never blocks depending on signal:
         * "always" is the goroutine parked on {@code reason} (and, at the end, still parked and
         * never returned); "never" is f returning.
         */
        void testBlock(boolean signal, String reason, TestSupport.Body f) {
            if (signal == NEVER) {
                Group group = new Group(rt);
                group.go(f);
                group.join();
                return;
            }
            G g = Scheduler.of(rt).go(() -> {
                try {
                    f.run();
                    escaped.compareAndSet(null, new AssertionError("function did not block (" + reason + ")"));
                } catch (Throwable e) {
                    escaped.compareAndSet(null, e);
                }
            });
            awaitParked(rt, g, reason);
            blocked.add(g);
            reasons.add(reason);
        }

        void checkStillBlocked() {
            for (int i = 0; i < blocked.size(); i++) {
                awaitParked(rt, blocked.get(i), reasons.get(i));
            }
            assertNull(escaped.get(), () -> "a blocked function went on: " + escaped.get());
        }
    }

    /** Go's select.go: Send's globals, counter and shift. */
    private int counter;
    private int shift;

    private int getValue() {
        counter++;
        return 1 << shift;
    }

    /** Go's Send, with a reusable Select: {@code a = nil} disables a's case for the next round. */
    private int send(Chan<Integer> a, Chan<Integer> b) {
        int i = 0;
        Select s = new Select();
        loop:
        while (true) {
            s.reset();
            int ca = s.send(a, getValue());
            int cb = s.send(b, getValue());
            int fired = s.selectNow();
            if (fired == ca) {
                i++;
                a = Chan.nil();
            } else if (fired == cb) {
                i++;
                b = Chan.nil();
            } else {
                break loop; // default
            }
            shift++;
        }
        return i;
    }

    /** Go's Send again, in the statement form. */
    private int sendStatement(Chan<Integer> a0, Chan<Integer> b0) {
        int[] i = {0};
        @SuppressWarnings("unchecked")
        Chan<Integer>[] ab = new Chan[] {a0, b0};
        boolean[] done = {false};
        while (!done[0]) {
            Select.selectOrDefault(() -> done[0] = true,
                    Select.onSend(ab[0], getValue(), () -> {
                        i[0]++;
                        ab[0] = Chan.nil();
                    }),
                    Select.onSend(ab[1], getValue(), () -> {
                        i[0]++;
                        ab[1] = Chan.nil();
                    }));
            if (!done[0]) {
                shift++;
            }
        }
        return i[0];
    }

    /** Go's select.go: the main program, with each form of Send. */
    @ParameterizedTest(name = "statementForm={0}")
    @ValueSource(booleans = {false, true})
    void select(boolean statementForm) {
        try (GoRuntime rt = runtime(1, "select-go")) {
            run(rt, () -> {
                counter = 0;
                shift = 0;
                Chan<Integer> a = new Chan<>(1, 0);
                Chan<Integer> b = new Chan<>(1, 0);
                int v = statementForm ? sendStatement(a, b) : send(a, b);
                assertEquals(2, v, "Send returned");
                int av = a.recv();
                int bv = b.recv();
                assertEquals(3, av | bv, () -> "bad values " + av + " " + bv);
                v = statementForm ? sendStatement(a, Chan.nil()) : send(a, Chan.nil());
                assertEquals(1, v, "Send returned");
                assertEquals(10, counter, "counter is");
            });
        }
    }
}
