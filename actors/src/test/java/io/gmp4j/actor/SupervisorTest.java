package io.gmp4j.actor;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Supervisors: each strategy restarts exactly the children it should (starts counted per
 * child), in OTP's order (stops in reverse start order, each waited for, recorded by the
 * children's own {@code finally}; restarts in start order, seen in the generated ids, which
 * grow with every spawn); restart types; restart intensity escalating; stable child references
 * and names across restarts.
 */
@ExtendWith(NoUncaughtExceptions.class)
class SupervisorTest {
    private static final Duration LONG = Duration.ofSeconds(TestSupport.TIMEOUT_S);
    /** Loose enough that only the intensity tests ever give up. */
    private static final Duration MINUTE = Duration.ofMinutes(1);

    record Ping(ActorRef<String> replyTo) {
    }

    /** Per-child start counters and the ordered log of the children's ends. */
    static final class Probe {
        final Map<String, AtomicInteger> starts = new HashMap<>();
        final List<String> events = Collections.synchronizedList(new ArrayList<>());

        AtomicInteger starts(String id) {
            synchronized (starts) {
                return starts.computeIfAbsent(id, k -> new AtomicInteger());
            }
        }

        int count(String id) {
            return starts(id).get();
        }

        /**
         * A process child: counts its start, answers Ping with "id#incarnation", throws on
         * "crash", returns (a normal stop) on "quit", and logs "stop:id" as it ends, whatever
         * the reason (before its supervisor can hear of it).
         */
        ChildSpec<Object> process(String id) {
            AtomicInteger n = starts(id);
            return ChildSpec.process(id, self -> {
                int incarnation = n.incrementAndGet();
                try {
                    while (true) {
                        Object m = self.receive();
                        if (m instanceof Ping(ActorRef<String> replyTo)) {
                            replyTo.tell(id + "#" + incarnation);
                        } else if ("crash".equals(m)) {
                            throw new IllegalStateException(id + " crashed");
                        } else if ("quit".equals(m)) {
                            return;
                        }
                    }
                } finally {
                    events.add("stop:" + id);
                }
            });
        }

        /** The same as a behaviour actor (no end log: a behaviour has no finally). */
        ChildSpec<Object> behavior(String id) {
            AtomicInteger n = starts(id);
            return ChildSpec.behavior(id, Behavior.setup(ctx -> {
                int incarnation = n.incrementAndGet();
                return (c, m) -> {
                    if (m instanceof Ping(ActorRef<String> replyTo)) {
                        replyTo.tell(id + "#" + incarnation);
                    } else if ("crash".equals(m)) {
                        throw new IllegalStateException(id + " crashed");
                    } else if ("quit".equals(m)) {
                        return Behavior.stopped();
                    }
                    return Behavior.same();
                };
            }));
        }
    }

    private static String ping(ActorRef<?> child) {
        @SuppressWarnings("unchecked")
        ActorRef<Object> c = (ActorRef<Object>) child;
        return c.<String>ask(Ping::new, LONG).get();
    }

    /** The incarnation behind a child's stable reference. */
    private static ActorRef<?> current(ActorRef<?> child) {
        return ((ChildRef<?>) child).current();
    }

    /** Waits until the supervisor has put a new incarnation behind {@code child}. */
    private static void awaitReplaced(ActorRef<?> child, ActorRef<?> old) {
        TestSupport.awaitCondition(() -> current(child) != old, () -> child + " not restarted");
    }

    private static long idOf(ActorRef<?> child) {
        String n = child.name();
        assertTrue(n.startsWith("$"), n);
        return Long.parseLong(n.substring(1));
    }

    private static ActorSystem system(String name, List<Terminated> failures) {
        ActorSystem system = ActorSystem.builder().name(name).maxProcs(2).build();
        system.onFailure(failures::add); // instead of stack traces on stderr
        return system;
    }

    private static void stopAndWait(ActorSystem system, Supervisor sup) {
        sup.stop();
        system.whenTerminated(sup.ref()).get(LONG);
    }

    @Test
    void oneForOneRestartsOnlyTheFailedChildBehindTheSameRef() {
        List<Terminated> failures = Collections.synchronizedList(new ArrayList<>());
        try (ActorSystem system = system("one-for-one", failures)) {
            Probe p = new Probe();
            ChildSpec<Object> a = p.behavior("a"), b = p.behavior("b");
            ChildSpec<Object> c = p.process("c");
            Supervisor sup = system.spawnSupervisor(SupervisorSpec.builder()
                    .strategy(SupervisionStrategy.ONE_FOR_ONE).intensity(10, MINUTE)
                    .child(a).child(b).child(c).build());
            ActorRef<Object> refB = sup.child(b), refC = sup.child(c);
            assertEquals("b#1", ping(refB));
            ActorRef<?> firstB = current(refB);

            refB.tell("crash");
            awaitReplaced(refB, firstB);
            assertEquals("b#2", ping(refB), "the stable ref reaches the new incarnation");
            assertFalse(firstB.isAlive());
            assertSame(refB, sup.child(b));
            assertSame(refB, sup.child("b"));
            ActorRef<?> firstC = current(refC);
            refC.tell("crash");
            awaitReplaced(refC, firstC);
            assertEquals("c#2", ping(refC));
            assertEquals(List.of("stop:c"), p.events);
            assertEquals("a#1", ping(sup.child(a)));

            stopAndWait(system, sup);
            assertEquals(1, p.count("a"));
            assertEquals(2, p.count("b"));
            assertEquals(2, p.count("c"));
            assertEquals(2, failures.size(), "the two crashes, reported once each");
            assertFalse(refB.isAlive());
            assertEquals(0, system.liveActors());
        }
    }

    @Test
    void oneForAllStopsTheOthersInReverseOrderAndRestartsAllInStartOrder() {
        List<Terminated> failures = Collections.synchronizedList(new ArrayList<>());
        try (ActorSystem system = system("one-for-all", failures)) {
            Probe p = new Probe();
            List<ChildSpec<Object>> specs = List.of(p.process("a"), p.process("b"), p.process("c"), p.process("d"));
            SupervisorSpec.Builder sb = SupervisorSpec.builder().strategy(SupervisionStrategy.ONE_FOR_ALL).intensity(10, MINUTE);
            specs.forEach(sb::child);
            Supervisor sup = system.spawnSupervisor(sb.build());
            long before = idOf(sup.child("d"));
            List<ActorRef<?>> old = specs.stream().<ActorRef<?>>map(s -> current(sup.child(s))).toList();

            sup.child(specs.get(1)).tell("crash");
            for (int i = 0; i < specs.size(); i++) {
                awaitReplaced(sup.child(specs.get(i)), old.get(i));
            }
            for (String id : List.of("a", "b", "c", "d")) {
                assertEquals(id + "#2", ping(sup.child(id)));
            }
            assertEquals(List.of("stop:b", "stop:d", "stop:c", "stop:a"), p.events);
            long ida = idOf(sup.child("a")), idb = idOf(sup.child("b")), idc = idOf(sup.child("c")), idd = idOf(sup.child("d"));
            assertTrue(before < ida && ida < idb && idb < idc && idc < idd, "restarted in start order: " + ida + " " + idb + " " + idc + " " + idd);

            stopAndWait(system, sup);
            for (String id : List.of("a", "b", "c", "d")) {
                assertEquals(2, p.count(id), id);
            }
            assertEquals(List.of("stop:b", "stop:d", "stop:c", "stop:a", "stop:d", "stop:c", "stop:b", "stop:a"), p.events,
                    "the supervisor's own stop: reverse start order too");
            assertEquals(1, failures.size());
        }
    }

    @Test
    void restForOneRestartsTheFailedChildAndTheOnesStartedAfterIt() {
        List<Terminated> failures = Collections.synchronizedList(new ArrayList<>());
        try (ActorSystem system = system("rest-for-one", failures)) {
            Probe p = new Probe();
            Supervisor sup = system.spawnSupervisor(SupervisorSpec.builder()
                    .strategy(SupervisionStrategy.REST_FOR_ONE).intensity(10, MINUTE)
                    .child(p.process("a")).child(p.process("b")).child(p.process("c")).child(p.process("d")).build());
            long idaBefore = idOf(sup.child("a"));
            List<ActorRef<?>> old = List.of("b", "c", "d").stream().<ActorRef<?>>map(id -> current(sup.child(id))).toList();

            sup.child("b").stop(); // permanent: a normal stop is restarted too
            awaitReplaced(sup.child("b"), old.get(0));
            awaitReplaced(sup.child("c"), old.get(1));
            awaitReplaced(sup.child("d"), old.get(2));
            assertEquals("b#2", ping(sup.child("b")));
            assertEquals("c#2", ping(sup.child("c")));
            assertEquals("d#2", ping(sup.child("d")));
            assertEquals("a#1", ping(sup.child("a")));
            assertEquals(List.of("stop:b", "stop:d", "stop:c"), p.events);
            long idb = idOf(sup.child("b")), idc = idOf(sup.child("c")), idd = idOf(sup.child("d"));
            assertTrue(idb < idc && idc < idd, "restarted in start order");
            assertEquals(idaBefore, idOf(sup.child("a")), "a untouched");

            ActorRef<?> d2 = current(sup.child("d"));
            @SuppressWarnings("unchecked")
            ActorRef<Object> d = (ActorRef<Object>) sup.child("d");
            d.tell("crash"); // the last one: only itself
            awaitReplaced(d, d2);
            assertEquals("d#3", ping(d));
            stopAndWait(system, sup);
            assertEquals(List.of(1, 2, 2, 3), List.of(p.count("a"), p.count("b"), p.count("c"), p.count("d")));
            assertEquals(1, failures.size());
        }
    }

    @Test
    void restartTypesPermanentTransientTemporary() {
        List<Terminated> failures = Collections.synchronizedList(new ArrayList<>());
        try (ActorSystem system = system("restart-types", failures)) {
            Probe p = new Probe();
            Supervisor sup = system.spawnSupervisor(SupervisorSpec.builder().intensity(10, MINUTE)
                    .child(p.behavior("perm-normal"))
                    .child(p.behavior("trans-normal").withRestart(Restart.TRANSIENT))
                    .child(p.process("temp-normal").withRestart(Restart.TEMPORARY))
                    .child(p.process("perm-crash"))
                    .child(p.process("trans-crash").withRestart(Restart.TRANSIENT))
                    .child(p.behavior("temp-crash").withRestart(Restart.TEMPORARY))
                    .build());
            List<String> ids = List.of("perm-normal", "trans-normal", "temp-normal", "perm-crash", "trans-crash", "temp-crash");
            // One at a time, each exit waited for: the supervisor takes exits in arrival order,
            // so the pings below (which need the restarted ones) come after every decision.
            List<ActorRef<?>> old = new ArrayList<>();
            for (String id : ids) {
                ActorRef<?> first = current(sup.child(id));
                old.add(first);
                @SuppressWarnings("unchecked")
                ActorRef<Object> ref = (ActorRef<Object>) sup.child(id);
                ref.tell(id.endsWith("crash") ? "crash" : "quit");
                system.whenTerminated(first).get(LONG);
            }
            awaitReplaced(sup.child("perm-normal"), old.get(0));
            awaitReplaced(sup.child("perm-crash"), old.get(3));
            awaitReplaced(sup.child("trans-crash"), old.get(4));
            assertEquals("perm-normal#2", ping(sup.child("perm-normal")));
            assertEquals("perm-crash#2", ping(sup.child("perm-crash")));
            assertEquals("trans-crash#2", ping(sup.child("trans-crash")));
            assertFalse(sup.child("trans-normal").isAlive());
            assertFalse(sup.child("temp-normal").isAlive());
            assertFalse(sup.child("temp-crash").isAlive());
            long dead = system.deadLetterCount();
            @SuppressWarnings("unchecked")
            ActorRef<Object> gone = (ActorRef<Object>) sup.child("temp-crash");
            gone.tell("to nobody");
            assertEquals(dead + 1, system.deadLetterCount(), "a child gone for good: its messages are dead letters");

            stopAndWait(system, sup);
            assertEquals(List.of(2, 1, 1, 2, 2, 1), ids.stream().map(p::count).toList());
            assertEquals(3, failures.size());
        }
    }

    @Test
    void oneForAllDropsTemporarySiblingsAndRestartsAStoppedTransientOne() {
        List<Terminated> failures = Collections.synchronizedList(new ArrayList<>());
        try (ActorSystem system = system("one-for-all-types", failures)) {
            Probe p = new Probe();
            Supervisor sup = system.spawnSupervisor(SupervisorSpec.builder()
                    .strategy(SupervisionStrategy.ONE_FOR_ALL).intensity(10, MINUTE)
                    .child(p.process("trans").withRestart(Restart.TRANSIENT))
                    .child(p.process("temp").withRestart(Restart.TEMPORARY))
                    .child(p.process("perm"))
                    .build());
            ActorRef<?> trans = current(sup.child("trans"));
            @SuppressWarnings("unchecked")
            ActorRef<Object> transRef = (ActorRef<Object>) sup.child("trans");
            transRef.tell("quit"); // transient, normal: not restarted, yet
            system.whenTerminated(trans).get(LONG);
            @SuppressWarnings("unchecked")
            ActorRef<Object> perm = (ActorRef<Object>) sup.child("perm");
            ActorRef<?> perm1 = current(perm);
            perm.tell("crash");
            awaitReplaced(perm, perm1);
            awaitReplaced(sup.child("trans"), trans);
            assertEquals("perm#2", ping(perm));
            assertEquals("trans#2", ping(sup.child("trans")), "OTP restarts every non-temporary child of the set");
            assertFalse(sup.child("temp").isAlive(), "a temporary sibling is stopped and dropped");
            assertEquals(List.of("stop:trans", "stop:perm", "stop:temp"), p.events);
            stopAndWait(system, sup);
            assertEquals(List.of(2, 1, 2), List.of(p.count("trans"), p.count("temp"), p.count("perm")));
        }
    }

    @Test
    void exceedingTheIntensityFailsTheSupervisorOnceAndEscalatesToItsParent() {
        List<Terminated> failures = Collections.synchronizedList(new ArrayList<>());
        try (ActorSystem system = system("intensity", failures)) {
            AtomicInteger starts = new AtomicInteger();
            // Dies at once, every time: initial start + 2 restarts, then the 3rd restart is one too many.
            SupervisorSpec sub = SupervisorSpec.builder().intensity(2, MINUTE)
                    .child(ChildSpec.process("doomed", self -> {
                        starts.incrementAndGet();
                        throw new IllegalStateException("doomed");
                    }))
                    .build();
            // The parent supervisor restarts the subtree once, then gives up in turn.
            SupervisorSpec top = SupervisorSpec.builder().intensity(1, MINUTE)
                    .child(ChildSpec.supervisor("sub", sub).withProps(Props.named("sub")))
                    .build();
            List<Object> notices = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch probed = new CountDownLatch(1);
            ActorRef<Object> parent = system.spawn(Behavior.setup(ctx -> {
                Supervisor s = ctx.spawnSupervisor(top, Props.named("top"));
                ctx.watch(s.ref());
                return (c, msg) -> {
                    notices.add(msg);
                    if ("probe".equals(msg)) {
                        probed.countDown();
                    }
                    return Behavior.same();
                };
            }));
            TestSupport.awaitCondition(() -> notices.size() == 1, () -> notices.size() + " notices");
            parent.tell("probe"); // FIFO behind any duplicate notice
            TestSupport.await(probed, () -> "probe not handled");
            assertEquals(2, notices.size(), "exactly one notice, then the probe: " + notices);
            Terminated t = (Terminated) notices.get(0);
            assertEquals("top", t.ref().name());
            RestartLimitExceededException topWhy = assertInstanceOf(RestartLimitExceededException.class, t.reason());
            RestartLimitExceededException subWhy = assertInstanceOf(RestartLimitExceededException.class, topWhy.getCause());
            assertEquals("doomed", subWhy.getCause().getMessage());
            assertEquals(6, starts.get(), "3 starts per sub incarnation, 2 incarnations");
            // 6 child crashes, 2 sub give-ups, 1 top give-up: each reported once.
            assertEquals(9, failures.size());
            assertEquals(9, system.failureCount());
            assertTrue(parent.isAlive(), "a watching parent is told, not killed");
            assertTrue(system.lookup("sub").isEmpty() && system.lookup("top").isEmpty(), "names freed");
            assertEquals(1, system.liveActors());
        }
    }

    @Test
    void theIntensityWindowForgetsOldRestarts() {
        List<Terminated> failures = Collections.synchronizedList(new ArrayList<>());
        try (ActorSystem system = system("intensity-window", failures)) {
            Probe p = new Probe();
            // At most 1 restart within 1 ns: two restarts never fall in one window.
            Supervisor sup = system.spawnSupervisor(SupervisorSpec.builder().intensity(1, Duration.ofNanos(1))
                    .child(p.process("w")).build());
            for (int i = 2; i <= 6; i++) {
                ActorRef<?> before = current(sup.child("w"));
                sup.child("w").stop();
                awaitReplaced(sup.child("w"), before);
                assertEquals("w#" + i, ping(sup.child("w")));
            }
            assertTrue(sup.isAlive());
            stopAndWait(system, sup);
            assertEquals(6, p.count("w"));
        }
    }

    @Test
    void zeroIntensityGivesUpAtTheFirstRestartAndKillsLinkedActors() {
        List<Terminated> failures = Collections.synchronizedList(new ArrayList<>());
        try (ActorSystem system = system("intensity-zero", failures)) {
            Probe p = new Probe();
            Supervisor sup = system.spawnSupervisor(SupervisorSpec.builder().intensity(0, MINUTE)
                    .child(p.process("a")).child(p.process("b")).build());
            Reply<Object> linked = new Reply<>("linked");
            ActorRef<Object> partner = system.spawn(Behavior.setup(ctx -> {
                ctx.link(sup.ref());
                linked.complete("ok", null);
                return (c, m) -> Behavior.same();
            }));
            linked.get(LONG);
            sup.child("a").stop();
            Terminated t = system.whenTerminated(sup.ref()).get(LONG);
            assertInstanceOf(RestartLimitExceededException.class, t.reason());
            assertNull(t.reason().getCause(), "a normal stop of a permanent child");
            assertEquals(List.of("stop:a", "stop:b"), p.events, "gave up: the rest stopped");
            Terminated pt = system.whenTerminated(partner).get(LONG);
            assertSame(t.reason(), pt.reason(), "the linked actor dies of the supervisor's reason");
            assertEquals(1, failures.size(), "only the supervisor's own failure is reported");
        }
    }

    @Test
    void namedChildrenAreFreedOnDeathAndTakenAgainByTheRestart() {
        List<Terminated> failures = Collections.synchronizedList(new ArrayList<>());
        try (ActorSystem system = system("sup-names", failures)) {
            Probe p = new Probe();
            ChildSpec<Object> w = p.behavior("w").withProps(Props.named("worker"));
            Supervisor sup = system.spawnSupervisor(SupervisorSpec.builder().intensity(10, MINUTE).child(w).build(),
                    Props.named("sup"));
            ActorRef<Object> first = system.<Object>lookup("worker").orElseThrow();
            assertSame(current(sup.child(w)), first);
            assertEquals("worker", sup.child(w).name());
            sup.child(w).tell("crash");
            awaitReplaced(sup.child(w), first);
            assertEquals("w#2", ping(sup.child(w)));
            ActorRef<Object> second = system.<Object>lookup("worker").orElseThrow();
            assertNotSame(first, second);
            assertEquals("w#2", ping(second));
            assertThrows(IllegalArgumentException.class, () -> sup.child("nope"));
            stopAndWait(system, sup);
            assertTrue(system.lookup("worker").isEmpty());
            assertTrue(system.lookup("sup").isEmpty());
        }
    }

    @Test
    void aChildThatCannotStartFailsSpawnAndStopsTheOnesStarted() {
        List<Terminated> failures = Collections.synchronizedList(new ArrayList<>());
        try (ActorSystem system = system("sup-start-fail", failures)) {
            system.spawn((c, m) -> Behavior.same(), "taken");
            Probe p = new Probe();
            SupervisorSpec spec = SupervisorSpec.builder()
                    .child(p.process("a"))
                    .child(p.process("b").withProps(Props.named("taken")))
                    .build();
            assertThrows(IllegalArgumentException.class, () -> system.spawnSupervisor(spec, Props.named("s")));
            TestSupport.awaitCondition(() -> system.liveActors() == 1, () -> system.liveActors() + " live");
            assertEquals(List.of("stop:a"), p.events);
            assertTrue(system.lookup("s").isEmpty());
            assertEquals(0, failures.size());
            assertThrows(IllegalArgumentException.class, () -> SupervisorSpec.builder()
                    .child(p.process("x")).child(p.behavior("x")));
            assertThrows(IllegalArgumentException.class, () -> SupervisorSpec.builder().intensity(-1, MINUTE));
            assertThrows(IllegalArgumentException.class, () -> SupervisorSpec.builder().intensity(1, Duration.ZERO));
            assertThrows(IllegalArgumentException.class, () -> ChildSpec.behavior("", (c, m) -> Behavior.same()));
        }
    }

    @Test
    void shutdownStopsSupervisedChildrenInReverseOrderBeforeTheSupervisorAndLeavesNoThread() {
        List<Terminated> failures = Collections.synchronizedList(new ArrayList<>());
        ActorSystem system = system("sup-shutdown", failures);
        Probe p = new Probe();
        Supervisor sup = system.spawnSupervisor(SupervisorSpec.builder()
                .child(p.process("a")).child(p.process("b")).child(p.process("c")).build());
        system.whenTerminated(sup.ref()).whenComplete((t, e) -> p.events.add("supervisor"));
        for (String id : List.of("a", "b", "c")) {
            assertEquals(id + "#1", ping(sup.child(id)));
        }
        List<Thread> threads = Scheduler.of(system.runtime()).threads();
        assertTrue(system.shutdown(LONG));
        TestSupport.awaitCondition(() -> p.events.size() == 4, () -> p.events.toString());
        assertEquals(List.of("stop:c", "stop:b", "stop:a", "supervisor"), p.events);
        for (String id : List.of("a", "b", "c")) {
            assertEquals(1, p.count(id), "no restart during the shutdown");
        }
        for (Thread t : threads) {
            assertFalse(t.isAlive(), t + " still alive");
        }
        assertEquals(0, failures.size());
    }
}
