package io.gmp4j.chan;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.chan.ChanTestSupport.Group;
import io.gmp4j.runtime.G;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.gmp4j.chan.ChanTestSupport.awaitParked;
import static io.gmp4j.chan.ChanTestSupport.runtime;
import static org.junit.jupiter.api.Assertions.*;

/**
 * A channel made with a zero value ({@code new Chan<>(cap, zero)}) yields it once closed and
 * drained, through every receive: recv, recvOk, tryRecv, a select's receive cases (fired before
 * the close and while waiting), the statement form's bodies. Iteration still ends at the close,
 * the zero value itself can be sent (and arrives with ok), null still cannot.
 */
@ExtendWith(NoUncaughtExceptions.class)
class ZeroValueTest {

    @ParameterizedTest(name = "cap={0}")
    @ValueSource(ints = {0, 1, 3})
    void closedChannelYieldsItsZeroValue(int cap) {
        Chan<Integer> c = new Chan<>(cap, 0);
        for (int i = 1; i <= cap; i++) {
            c.send(i);
        }
        c.close();
        for (int i = 1; i <= cap; i++) {
            assertEquals(new Recv<>(i, true), c.recvOk(), "buffered values first");
        }
        for (int i = 0; i < 3; i++) {
            assertEquals(0, c.recv()); // Go: if <-c != 0 { panic }
            assertEquals(new Recv<>(0, false), c.recvOk());
            assertEquals(new Recv<>(0, false), c.tryRecv());
        }
        List<Integer> ranged = new ArrayList<>();
        for (Integer v : c) {
            ranged.add(v);
        }
        assertEquals(List.of(), ranged, "range ends at the close; it does not yield the zero value");

        Select s = new Select();
        int r = s.recv(c);
        assertEquals(r, s.selectNow());
        assertEquals(0, (int) s.value());
        assertFalse(s.ok());
        s.reset();
        s.recv(Chan.nil());
        r = s.recv(c);
        assertEquals(r, s.select());
        assertEquals(0, (int) s.value());
        assertFalse(s.ok());

        AtomicReference<Object> got = new AtomicReference<>();
        Select.select(Select.onRecv(c, got::set));
        assertEquals(0, got.get());
        Select.selectOrDefault(() -> fail("a closed channel is ready"), Select.onRecvOk(c, (v, ok) -> got.set(new Recv<>(v, ok))));
        assertEquals(new Recv<>(0, false), got.get());
    }

    @Test
    void otherTypesAndTheDefault() {
        Chan<String> s = new Chan<>(1, "");
        s.close();
        assertEquals("", s.recv());
        assertEquals(new Recv<>("", false), s.recvOk());
        Chan<Boolean> b = new Chan<>(0, false);
        b.close();
        assertFalse(b.recv()); // Go: if !<-b (no unboxing of null)

        Chan<Integer> plain = new Chan<>(2);
        plain.close();
        assertNull(plain.recv(), "without a zero value a closed channel yields null");
        assertSame(Recv.closed(), plain.recvOk());
        Chan<Integer> nullZero = new Chan<>(0, null);
        nullZero.close();
        assertSame(Recv.closed(), nullZero.recvOk(), "a null zero is the default");
    }

    /** The zero value is an ordinary value when sent: it arrives with ok == true. Null is never sent. */
    @Test
    void theZeroValueCanBeSentAndNullCannot() {
        Chan<Integer> c = new Chan<>(2, 0);
        c.send(0);
        assertEquals(new Recv<>(0, true), c.recvOk());
        assertTrue(c.trySend(0));
        Select s = new Select();
        int r = s.recv(c);
        assertEquals(r, s.select());
        assertTrue(s.ok());
        assertEquals(0, (int) s.value());
        assertThrows(NullPointerException.class, () -> c.send(null));
        assertThrows(NullPointerException.class, () -> c.trySend(null));
        assertThrows(NullPointerException.class, () -> new Select().send(c, null));
        assertThrows(NullPointerException.class, () -> Select.onSend(c, null, () -> { }));
        assertEquals(0, c.len(), "nothing was sent by the refused sends");
    }

    /**
     * Receivers parked when the channel closes (a plain receive, a receive with ok, a range, a
     * reusable select and the statement form, on goroutines and a platform thread) all wake
     * with the zero value and ok == false.
     */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void receiversParkedAtTheCloseGetTheZeroValue(int procs) {
        try (GoRuntime rt = runtime(procs, "zero-close")) {
            Chan<Integer> c = new Chan<>(0, -1);
            Chan<Integer> never = new Chan<>(0, 5); // a second case that never fires
            Group group = new Group(rt);
            G plain = group.go(() -> assertEquals(-1, c.recv()));
            G withOk = group.go(() -> assertEquals(new Recv<>(-1, false), c.recvOk()));
            G ranging = group.go(() -> {
                for (Integer v : c) {
                    fail("range yielded " + v);
                }
            });
            G selecting = group.go(() -> {
                Select s = new Select();
                s.recv(never);
                int r = s.recv(c);
                assertEquals(r, s.select());
                assertFalse(s.ok());
                assertEquals(-1, (int) s.value());
            });
            G statement = group.go(() -> {
                AtomicReference<Recv<Integer>> got = new AtomicReference<>();
                Select.select(Select.onRecvOk(never, (v, ok) -> fail("never fired")), Select.onRecvOk(c, (v, ok) -> got.set(new Recv<>(v, ok))));
                assertEquals(new Recv<>(-1, false), got.get());
            });
            Thread platform = group.thread(() -> assertEquals(new Recv<>(-1, false), c.recvOk()));
            awaitParked(rt, plain, "chan receive");
            awaitParked(rt, withOk, "chan receive");
            awaitParked(rt, ranging, "chan receive");
            awaitParked(rt, selecting, "select");
            awaitParked(rt, statement, "select");
            awaitParked(platform);
            c.close();
            group.join();
        }
    }
}
