package io.gmp4j.actor;

import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.chan.Chan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Links and trap exits, Erlang's rules: an abnormal exit kills linked actors that do not trap
 * (with the same reason, along chains), a normal one does not; a trapping actor gets exactly
 * one {@link ExitSignal} per link; linking to a dead actor signals at once (noproc); unlink
 * ends it; and termination notices pass a full bounded mailbox.
 */
@ExtendWith(NoUncaughtExceptions.class)
class LinkTest {
    private static final Duration LONG = Duration.ofSeconds(TestSupport.TIMEOUT_S);

    /** A behaviour that links to {@code others} (trapping exits if asked), logs every message, crashes on "crash". */
    private static Behavior<Object> linked(List<Object> log, boolean trap, CountDownLatch ready, ActorRef<?>... others) {
        return Behavior.setup(ctx -> {
            ctx.trapExits(trap);
            for (ActorRef<?> o : others) {
                ctx.link(o);
                ctx.link(o); // twice: still one link
            }
            ready.countDown();
            return (c, m) -> {
                if ("crash".equals(m)) {
                    throw new IllegalStateException("crash of " + c.self().name());
                }
                if ("quit".equals(m)) {
                    return Behavior.stopped();
                }
                log.add(m);
                return Behavior.same();
            };
        });
    }

    private static ActorSystem system(String name, List<Terminated> failures) {
        ActorSystem system = ActorSystem.builder().name(name).maxProcs(2).build();
        system.onFailure(failures::add);
        return system;
    }

    /** Sends "probe" and waits until it is logged: everything sent to the actor before is in. */
    private static void probe(ActorRef<Object> a, List<Object> log) {
        a.tell("probe");
        TestSupport.awaitCondition(() -> log.contains("probe"), () -> "probe not handled: " + log);
    }

    @Test
    void anAbnormalExitKillsALinkedChainWithTheSameReasonAndATrappingActorGetsOneSignal() {
        List<Terminated> failures = Collections.synchronizedList(new ArrayList<>());
        try (ActorSystem system = system("link-chain", failures)) {
            List<Object> logA = Collections.synchronizedList(new ArrayList<>());
            List<Object> logB = Collections.synchronizedList(new ArrayList<>());
            List<Object> logC = Collections.synchronizedList(new ArrayList<>());
            List<Object> logT = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch ready = new CountDownLatch(4);
            ActorRef<Object> a = system.spawn(linked(logA, false, ready));
            ActorRef<Object> b = system.spawn(linked(logB, false, ready, a)); // b links to a
            ActorRef<Object> c = system.spawnProcess(self -> {                 // c, a process, links to b
                self.link(b);
                ready.countDown();
                while (true) {
                    logC.add(self.receive());
                }
            });
            ActorRef<Object> trapper = system.spawn(linked(logT, true, ready, c));
            TestSupport.await(ready, () -> "links not made");

            a.tell("crash");
            Terminated ta = system.whenTerminated(a).get(LONG);
            Terminated tb = system.whenTerminated(b).get(LONG);
            Terminated tc = system.whenTerminated(c).get(LONG);
            assertEquals("crash of " + a.name(), ta.reason().getMessage());
            assertSame(ta.reason(), tb.reason(), "b dies of a's reason");
            assertSame(ta.reason(), tc.reason(), "and c of it too, through b");
            // c's watchers (whenTerminated) are told before its links: wait for the signal.
            TestSupport.awaitCondition(() -> !logT.isEmpty(), () -> "no exit signal");
            probe(trapper, logT);
            assertEquals(List.of(new ExitSignal(c, ta.reason()), "probe"), logT, "exactly one signal, then the probe");
            assertTrue(trapper.isAlive());
            assertEquals(List.of(ta), failures, "only a's own failure is reported");
            assertEquals(List.of(), logA);
            assertEquals(List.of(), logB);
            assertEquals(List.of(), logC);
        }
    }

    @Test
    void aNormalExitDoesNotKillALinkedActorButATrappingOneIsTold() {
        List<Terminated> failures = Collections.synchronizedList(new ArrayList<>());
        try (ActorSystem system = system("link-normal", failures)) {
            List<Object> logA = Collections.synchronizedList(new ArrayList<>());
            List<Object> logB = Collections.synchronizedList(new ArrayList<>());
            List<Object> logT = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch ready = new CountDownLatch(3);
            ActorRef<Object> a = system.spawn(linked(logA, false, ready));
            ActorRef<Object> b = system.spawn(linked(logB, false, ready, a));
            ActorRef<Object> trapper = system.spawn(linked(logT, true, ready, a));
            TestSupport.await(ready, () -> "links not made");
            a.tell("quit");
            system.whenTerminated(a).get(LONG);
            TestSupport.awaitCondition(() -> !logT.isEmpty(), () -> "no exit signal");
            probe(b, logB);
            probe(trapper, logT);
            assertTrue(b.isAlive(), "a normal exit does not kill");
            assertEquals(List.of(new ExitSignal(a, null), "probe"), logT);
            assertFalse(((ExitSignal) logT.get(0)).failed());
            assertEquals(0, failures.size());
        }
    }

    @Test
    void linksGoBothWays() {
        List<Terminated> failures = Collections.synchronizedList(new ArrayList<>());
        try (ActorSystem system = system("link-both-ways", failures)) {
            List<Object> log = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch ready = new CountDownLatch(2);
            ActorRef<Object> a = system.spawn(linked(log, false, ready));
            ActorRef<Object> b = system.spawn(linked(log, false, ready, a)); // b made the link
            TestSupport.await(ready, () -> "links not made");
            b.tell("crash");                                                 // a dies of b
            Terminated ta = system.whenTerminated(a).get(LONG);
            assertSame(system.whenTerminated(b).get(LONG).reason(), ta.reason());
        }
    }

    @Test
    void linkingToADeadActorSignalsNoProcAtOnce() {
        List<Terminated> failures = Collections.synchronizedList(new ArrayList<>());
        try (ActorSystem system = system("link-noproc", failures)) {
            ActorRef<Object> dead = system.spawn((c, m) -> Behavior.stopped());
            dead.tell("stop");
            system.whenTerminated(dead).get(LONG);
            List<Object> logT = Collections.synchronizedList(new ArrayList<>());
            List<Object> logN = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch ready = new CountDownLatch(2);
            ActorRef<Object> trapper = system.spawn(linked(logT, true, ready, dead));
            ActorRef<Object> plain = system.spawn(linked(logN, false, ready, dead));
            TestSupport.await(ready, () -> "not started");
            Terminated tn = system.whenTerminated(plain).get(LONG);
            assertInstanceOf(NoSuchActorException.class, tn.reason());
            probe(trapper, logT);
            // As in Erlang, each attempt to link to a dead actor signals (the helper links twice).
            assertEquals(3, logT.size(), "two signals, then the probe: " + logT);
            for (Object m : logT.subList(0, 2)) {
                ExitSignal e = (ExitSignal) m;
                assertSame(dead, e.ref());
                assertInstanceOf(NoSuchActorException.class, e.reason());
            }
            assertEquals(0, failures.size());
        }
    }

    @Test
    void afterUnlinkACrashNoLongerActs() {
        List<Terminated> failures = Collections.synchronizedList(new ArrayList<>());
        try (ActorSystem system = system("unlink", failures)) {
            List<Object> log = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch ready = new CountDownLatch(1);
            ActorRef<Object> a = system.spawn(linked(new ArrayList<>(), false, new CountDownLatch(1)));
            ActorRef<Object> b = system.spawn(Behavior.setup(ctx -> {
                ctx.link(a);
                ctx.unlink(a);
                ready.countDown();
                return (c, m) -> {
                    log.add(m);
                    return Behavior.same();
                };
            }));
            TestSupport.await(ready, () -> "not started");
            a.tell("crash");
            system.whenTerminated(a).get(LONG);
            probe(b, log);
            assertTrue(b.isAlive());
            assertEquals(List.of("probe"), log);
        }
    }

    @Test
    void aSupervisedChildCanBeLinkedThroughItsStableRef() {
        List<Terminated> failures = Collections.synchronizedList(new ArrayList<>());
        try (ActorSystem system = system("link-child", failures)) {
            ChildSpec<Object> w = ChildSpec.behavior("w", (c, m) -> {
                throw new IllegalStateException("w crashed");
            });
            Supervisor sup = system.spawnSupervisor(SupervisorSpec.builder().intensity(5, Duration.ofMinutes(1)).child(w).build());
            ActorRef<?> first = ((ChildRef<?>) sup.child(w)).current();
            List<Object> log = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch ready = new CountDownLatch(1);
            ActorRef<Object> trapper = system.spawn(linked(log, true, ready, sup.child(w)));
            TestSupport.await(ready, () -> "not linked");
            sup.child(w).tell("anything");
            TestSupport.awaitCondition(() -> !log.isEmpty(), () -> "no exit signal");
            probe(trapper, log);
            assertEquals(2, log.size(), "one signal, then the probe: " + log);
            ExitSignal e = (ExitSignal) log.get(0);
            assertSame(first, e.ref(), "the incarnation current when the link was made");
            assertEquals("w crashed", e.reason().getMessage());
            assertTrue(trapper.isAlive());
            assertTrue(sup.isAlive());
        }
    }

    @Test
    void aFullBoundedMailboxStillGetsItsTerminationNoticeAndExitSignal() {
        for (Overflow policy : Overflow.values()) {
            noticesPassTheBound(policy);
        }
    }

    private static void noticesPassTheBound(Overflow policy) {
        List<Terminated> failures = Collections.synchronizedList(new ArrayList<>());
        try (ActorSystem system = system("notice-past-bound-" + policy, failures)) {
            ActorRef<Object> watched = system.spawn((c, m) -> Behavior.stopped());
            ActorRef<Object> linkedTo = system.spawn((c, m) -> {
                throw new IllegalStateException("linked actor crashed");
            });
            Chan<Boolean> gate = new Chan<>();
            CountDownLatch ready = new CountDownLatch(1);
            List<Object> got = Collections.synchronizedList(new ArrayList<>());
            int capacity = 2;
            ActorRef<Object> full = system.spawnProcess(self -> {
                self.watch(watched);
                self.trapExits(true);
                self.link(linkedTo);
                ready.countDown();
                gate.recv(); // no receive until the mailbox is full and both notices were sent
                for (int i = 0; i < capacity + 2; i++) {
                    got.add(self.receive());
                }
            }, Props.DEFAULT.withMailbox(capacity, policy));
            ActorCell<?> cell = (ActorCell<?>) full;
            TestSupport.await(ready, () -> "not started");
            for (int i = 0; i < capacity; i++) {
                full.tell("m" + i);
            }
            assertEquals(capacity, cell.bound.count(), "full");
            switch (policy) {
                case FAIL -> assertThrows(MailboxFullException.class, () -> full.tell("refused"));
                case DROP -> {
                    full.tell("dropped");
                    assertEquals(1, system.deadLetterCount());
                }
                case BLOCK -> {
                    // a sender would wait: BoundedMailboxTest covers it
                }
            }
            watched.tell("stop"); // one after the other, so the order of the notices is known
            TestSupport.awaitCondition(() -> cell.mailbox.size() == capacity + 1, () -> cell.mailbox.size() + " queued");
            linkedTo.tell("crash");
            TestSupport.awaitCondition(() -> cell.mailbox.size() == capacity + 2, () -> cell.mailbox.size() + " queued");
            assertEquals(capacity, cell.bound.count(), "the notices took no place");
            long deadBefore = system.deadLetterCount();
            gate.send(true);
            system.whenTerminated(full).get(LONG);
            assertEquals(List.of("m0", "m1", new Terminated(watched, null)), got.subList(0, 3));
            ExitSignal e = (ExitSignal) got.get(3);
            assertSame(linkedTo, e.ref());
            assertEquals("linked actor crashed", e.reason().getMessage());
            assertEquals(0, cell.bound.count(), "every place given back, none twice");
            assertEquals(deadBefore, system.deadLetterCount(), "no notice lost");
        }
    }
}
