package io.gmp4j.actor;

import io.gmp4j.actor.PerSenderDelivery.Msg;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.chan.Chan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.gmp4j.actor.PerSenderDelivery.startSenders;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Bounded mailboxes: BLOCK, FAIL and DROP counted exactly; a behaviour actor sender is never
 * blocked; a dying actor wakes its blocked senders, whose messages become dead letters.
 */
@ExtendWith(NoUncaughtExceptions.class)
class BoundedMailboxTest {
    private static final Duration LONG = Duration.ofSeconds(TestSupport.TIMEOUT_S);

    /** Goroutines parked with the bounded mailbox's wait reason, from the goroutine dump. */
    private static int parkedFull(ActorSystem system) {
        String dump = system.runtime().dump();
        String needle = "[" + MailboxBound.WAIT_REASON;
        int n = 0;
        for (int at = dump.indexOf(needle); at >= 0; at = dump.indexOf(needle, at + 1)) {
            n++;
        }
        return n;
    }

    /** Consumer-side checks: {@link PerSenderDelivery.Checker}'s, and the mailbox never over capacity. */
    static final class Checker extends PerSenderDelivery.Checker {
        final int capacity;
        int maxQueued;

        Checker(int senders, int capacity) {
            super(senders);
            this.capacity = capacity;
        }

        void accept(ActorCell<?> cell, Msg m) {
            // Observed in the handler: the queue and the places taken never exceed the capacity.
            int queued = Math.max(cell.mailbox.size(), cell.bound.count());
            maxQueued = Math.max(maxQueued, queued);
            if (queued > capacity && errors.size() < 10) {
                errors.add("mailbox holds " + queued + " > capacity " + capacity);
            }
            accept(m);
        }
    }

    @Test
    void blockLosesNothingAndParksGoroutineAndThreadSendersOfAProcessActor() throws Exception {
        int goroutines = 6, threads = 3, senders = goroutines + threads, capacity = 4;
        int perSender = TestSupport.stress(20_000, 3_000);
        long total = (long) senders * perSender;
        try (ActorSystem system = ActorSystem.builder().name("bounded-block-proc").maxProcs(2).build()) {
            Checker checker = new Checker(senders, capacity);
            Chan<Boolean> gate = new Chan<>();
            CountDownLatch all = new CountDownLatch(1);
            AtomicReference<ActorCell<Msg>> self = new AtomicReference<>();
            ActorRef<Msg> sink = system.spawnProcess(ctx -> {
                gate.recv(); // hold the consumer until every sender is seen blocked
                ActorCell<Msg> cell = self.get();
                while (checker.received < total) {
                    checker.accept(cell, ctx.receive());
                }
                all.countDown();
            }, Props.DEFAULT.withMailbox(capacity, Overflow.BLOCK));
            ActorCell<Msg> cell = (ActorCell<Msg>) sink;
            self.set(cell);
            List<Thread> platform = startSenders(system, sink, goroutines, threads, perSender);
            // Every sender blocked: the capacity is full, each one waits, goroutines in the dump.
            TestSupport.awaitCondition(() -> cell.bound.waiting() == senders && parkedFull(system) == goroutines,
                    () -> "waiting " + cell.bound.waiting() + ", parked goroutines " + parkedFull(system) + "\n"
                            + system.runtime().dump());
            assertEquals(capacity, cell.mailbox.size());
            assertEquals(capacity, cell.bound.count());
            for (Thread t : platform) {
                assertEquals(Thread.State.WAITING, t.getState(), t.getName());
            }
            gate.send(true);
            TestSupport.await(all, () -> checker.received + " of " + total + "; waiting " + cell.bound.waiting()
                    + "\n" + system.runtime().dump());
            for (Thread t : platform) {
                t.join();
            }
            checker.assertEveryMessageOnceInOrder(perSender);
            assertTrue(checker.maxQueued <= capacity);
            assertEquals(0, cell.bound.count());
            assertEquals(0, cell.bound.waiting());
            assertEquals(0, system.deadLetterCount());
        }
    }

    @Test
    void blockLosesNothingWithASlowBehaviourActor() throws Exception {
        int goroutines = 6, threads = 3, senders = goroutines + threads, capacity = 3;
        int perSender = TestSupport.stress(20_000, 3_000);
        long total = (long) senders * perSender;
        try (ActorSystem system = ActorSystem.builder().name("bounded-block-beh").maxProcs(2).throughput(4).build()) {
            Checker checker = new Checker(senders, capacity);
            CountDownLatch all = new CountDownLatch(1);
            AtomicReference<ActorCell<Msg>> self = new AtomicReference<>();
            ActorRef<Msg> sink = system.spawn((ctx, m) -> {
                TestSupport.burn(2_000); // slow consumer
                checker.accept(self.get(), m);
                if (checker.received == total) {
                    all.countDown();
                }
                return Behavior.same();
            }, Props.DEFAULT.withMailbox(capacity, Overflow.BLOCK));
            ActorCell<Msg> cell = (ActorCell<Msg>) sink;
            self.set(cell);
            List<Thread> platform = startSenders(system, sink, goroutines, threads, perSender);
            TestSupport.await(all, () -> checker.received + " of " + total + "; waiting " + cell.bound.waiting()
                    + "\n" + system.runtime().dump());
            for (Thread t : platform) {
                t.join();
            }
            checker.assertEveryMessageOnceInOrder(perSender);
            assertEquals(0, cell.bound.count());
            assertEquals(0, system.deadLetterCount());
        }
    }

    /**
     * A process actor that waits for the gate, then records every message it receives; when it
     * has {@code expect} of them it counts {@code done} down (both may be replaced later).
     */
    private static ActorRef<Integer> gated(ActorSystem system, Chan<Boolean> gate, List<Integer> got,
            AtomicInteger expect, AtomicReference<CountDownLatch> done, Props props) {
        return system.spawnProcess(ctx -> {
            gate.recv();
            while (true) {
                got.add(ctx.receive());
                if (got.size() == expect.get()) {
                    done.get().countDown();
                }
            }
        }, props);
    }

    @Test
    void failThrowsOnceFullAndEnqueuesNothing() throws Exception {
        int capacity = 5;
        try (ActorSystem system = ActorSystem.builder().name("bounded-fail").maxProcs(2).build()) {
            Chan<Boolean> gate = new Chan<>();
            List<Integer> got = new ArrayList<>();
            AtomicReference<CountDownLatch> done = new AtomicReference<>(new CountDownLatch(1));
            AtomicInteger expect = new AtomicInteger(capacity);
            ActorRef<Integer> a = gated(system, gate, got, expect, done,
                    Props.named("failing").withMailbox(capacity, Overflow.FAIL));
            ActorCell<Integer> cell = (ActorCell<Integer>) a;
            for (int i = 0; i < capacity; i++) {
                a.tell(i);
            }
            for (int i = 0; i < 3; i++) {
                int v = 100 + i;
                MailboxFullException e = assertThrows(MailboxFullException.class, () -> a.tell(v));
                assertEquals("failing", e.actor());
                assertEquals(capacity, e.capacity());
                assertTrue(e.getMessage().contains("failing") && e.getMessage().contains("capacity " + capacity),
                        e.getMessage());
            }
            assertEquals(capacity, cell.mailbox.size());
            assertEquals(capacity, cell.bound.count());
            // ask on a full FAIL mailbox: the answer fails at once, nothing enqueued
            Reply<Integer> r = a.<Integer>ask(ref -> 999, LONG);
            assertThrows(MailboxFullException.class, () -> r.get(LONG));
            assertInstanceOf(MailboxFullException.class, r.failure());
            assertEquals(capacity, cell.mailbox.size());
            gate.send(true);
            TestSupport.await(done.get(), () -> "got " + got);
            assertEquals(List.of(0, 1, 2, 3, 4), got);
            // room again: a tell goes through
            done.set(new CountDownLatch(1));
            expect.set(capacity + 1);
            a.tell(5);
            TestSupport.await(done.get(), () -> "got " + got);
            assertEquals(List.of(0, 1, 2, 3, 4, 5), got);
            a.stop();
            system.whenTerminated(a).get(LONG);
            assertEquals(0, system.deadLetterCount());
        }
    }

    @Test
    void dropCountsExactlyTheOverflowAsDeadLetters() throws Exception {
        int capacity = 8, extra = 13;
        try (ActorSystem system = ActorSystem.builder().name("bounded-drop").maxProcs(2).build()) {
            List<DeadLetter> dead = new ArrayList<>();
            system.onDeadLetter(d -> {
                synchronized (dead) {
                    dead.add(d);
                }
            });
            Chan<Boolean> gate = new Chan<>();
            List<Integer> got = new ArrayList<>();
            AtomicReference<CountDownLatch> done = new AtomicReference<>(new CountDownLatch(1));
            AtomicInteger expect = new AtomicInteger(capacity);
            ActorRef<Integer> a = gated(system, gate, got, expect, done,
                    Props.DEFAULT.withMailbox(capacity, Overflow.DROP));
            for (int i = 0; i < capacity + extra; i++) {
                a.tell(i); // never throws, never blocks
            }
            assertEquals(extra, system.deadLetterCount());
            List<Integer> droppedMsgs = new ArrayList<>();
            synchronized (dead) {
                for (DeadLetter d : dead) {
                    droppedMsgs.add((Integer) d.message());
                    assertSame(a, d.recipient());
                }
            }
            List<Integer> wantDropped = new ArrayList<>();
            for (int i = capacity; i < capacity + extra; i++) {
                wantDropped.add(i);
            }
            assertEquals(wantDropped, droppedMsgs);
            gate.send(true);
            TestSupport.await(done.get(), () -> "got " + got);
            List<Integer> want = new ArrayList<>();
            for (int i = 0; i < capacity; i++) {
                want.add(i);
            }
            assertEquals(want, got);
            // room again: the next one is accepted
            done.set(new CountDownLatch(1));
            expect.set(capacity + 1);
            a.tell(42);
            TestSupport.await(done.get(), () -> "got " + got);
            assertEquals(42, got.get(capacity));
            assertEquals(extra, system.deadLetterCount());
        }
    }

    @Test
    void behaviourActorSenderToAFullBlockMailboxIsNotBlocked() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("bounded-beh-sender").maxProcs(2).build()) {
            Chan<Boolean> gate = new Chan<>();
            List<Integer> got = new ArrayList<>();
            AtomicReference<CountDownLatch> done = new AtomicReference<>(new CountDownLatch(1));
            ActorRef<Integer> target = gated(system, gate, got, new AtomicInteger(1), done,
                    Props.named("target").withMailbox(1, Overflow.BLOCK));
            ActorCell<Integer> cell = (ActorCell<Integer>) target;
            target.tell(1); // full now
            AtomicReference<Throwable> seen = new AtomicReference<>();
            CountDownLatch returned = new CountDownLatch(1);
            ActorRef<String> sender = system.spawn((ctx, m) -> {
                try {
                    target.tell(2);
                } catch (MailboxFullException e) {
                    seen.set(e);
                }
                returned.countDown();
                return Behavior.same();
            });
            sender.tell("go");
            TestSupport.await(returned, () -> "the behaviour actor sender blocked\n" + system.runtime().dump());
            assertInstanceOf(MailboxFullException.class, seen.get());
            assertEquals("target", ((MailboxFullException) seen.get()).actor());
            assertEquals(0, cell.bound.waiting());
            assertEquals(1, cell.mailbox.size());
            gate.send(true);
            TestSupport.await(done.get(), () -> "got " + got);
            assertEquals(List.of(1), got);
        }
    }

    @Test
    void stoppingWakesBlockedSendersAndTheirMessagesBecomeDeadLetters() throws Exception {
        int capacity = 2, goroutines = 3;
        try (ActorSystem system = ActorSystem.builder().name("bounded-stop").maxProcs(2).build()) {
            Chan<Boolean> gate = new Chan<>();
            List<Integer> got = new ArrayList<>();
            AtomicReference<CountDownLatch> never = new AtomicReference<>(new CountDownLatch(1));
            ActorRef<Integer> a = gated(system, gate, got, new AtomicInteger(-1), never,
                    Props.DEFAULT.withMailbox(capacity, Overflow.BLOCK));
            ActorCell<Integer> cell = (ActorCell<Integer>) a;
            List<Object> dead = java.util.Collections.synchronizedList(new ArrayList<>());
            system.onDeadLetter(d -> dead.add(d.message() + "@" + Thread.currentThread()));
            a.tell(0);
            a.tell(1);
            CountDownLatch sendersDone = new CountDownLatch(goroutines + 1);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            for (int g = 0; g < goroutines; g++) {
                int v = 10 + g;
                system.runtime().go(() -> {
                    try {
                        a.tell(v);
                    } catch (Throwable t) {
                        failure.set(t);
                    }
                    sendersDone.countDown();
                });
            }
            Thread platform = Thread.ofPlatform().start(() -> {
                try {
                    a.tell(20);
                } catch (Throwable t) {
                    failure.set(t);
                }
                sendersDone.countDown();
            });
            TestSupport.awaitCondition(() -> cell.bound.waiting() == goroutines + 1 && parkedFull(system) == goroutines,
                    () -> "waiting " + cell.bound.waiting() + "\n" + system.runtime().dump());
            assertEquals(0, system.deadLetterCount());
            a.stop(); // seen by the next receive: the body ends without taking a message
            gate.send(true);
            TestSupport.await(sendersDone, () -> "blocked senders not woken; waiting " + cell.bound.waiting()
                    + "\n" + system.runtime().dump());
            platform.join();
            system.whenTerminated(a).get(LONG);
            assertNull(failure.get());
            assertEquals(List.of(), got);
            // the two in the mailbox and the four that waited
            assertEquals(capacity + goroutines + 1, system.deadLetterCount(), () -> "dead letters so far: " + dead);
            assertEquals(0, cell.bound.waiting());
            // and later tells are dead letters too, without blocking
            a.tell(99);
            assertEquals(capacity + goroutines + 2, system.deadLetterCount());
        }
    }

    @Test
    void aProcessActorTellingItsOwnFullBlockMailboxFailsInsteadOfWaitingForItself() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("bounded-self").maxProcs(2).build()) {
            AtomicReference<Throwable> seen = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(1);
            ActorRef<Integer> a = system.spawnProcess(ctx -> {
                ctx.self().tell(1);
                ctx.self().tell(2);
                try {
                    ctx.self().tell(3);
                } catch (MailboxFullException e) {
                    seen.set(e);
                }
                assertEquals(1, ctx.receive());
                assertEquals(2, ctx.receive());
                done.countDown();
            }, Props.DEFAULT.withMailbox(2, Overflow.BLOCK));
            TestSupport.await(done, () -> system.runtime().dump());
            assertInstanceOf(MailboxFullException.class, seen.get());
            system.whenTerminated(a).get(LONG);
            assertEquals(0, system.failureCount());
        }
    }

    @Test
    void propsValidateTheMailbox() {
        assertThrows(IllegalArgumentException.class, () -> Props.DEFAULT.withMailbox(0, Overflow.BLOCK));
        assertThrows(NullPointerException.class, () -> Props.DEFAULT.withMailbox(1, null));
        Props p = Props.named("x").withThroughput(3).withMailbox(7, Overflow.DROP);
        assertEquals(new Props("x", 3, 7, Overflow.DROP), p);
        assertEquals(0, p.withUnboundedMailbox().capacity());
        assertEquals(0, Props.DEFAULT.capacity());
    }
}
