package io.gmp4j.actor;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.*;

/** Failure, watch (monitors), names, dead letters, stop order and a clean shutdown. */
@ExtendWith(NoUncaughtExceptions.class)
class LifecycleTest {
    private static final Duration LONG = Duration.ofSeconds(TestSupport.TIMEOUT_S);

    @Test
    void anExceptionStopsTheActorAndEachWatcherGetsExactlyOneTerminated() {
        try (ActorSystem system = ActorSystem.builder().name("watch").maxProcs(2).build()) {
            List<Terminated> failures = Collections.synchronizedList(new ArrayList<>());
            system.onFailure(failures::add); // instead of the stack trace on stderr
            ActorRef<String> worker = system.spawn((ctx, s) -> {
                if (s.equals("crash")) {
                    throw new IllegalArgumentException("crash requested");
                }
                return Behavior.same();
            }, "worker");
            int watchers = 20;
            List<Object> notices = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch watching = new CountDownLatch(watchers);
            CountDownLatch told = new CountDownLatch(watchers);
            for (int i = 0; i < watchers; i++) {
                system.spawn(Behavior.<Object>setup(ctx -> {
                    ctx.watch(worker);
                    ctx.watch(worker); // twice: still one notice
                    watching.countDown();
                    return (c, msg) -> {
                        notices.add(msg);
                        told.countDown();
                        return Behavior.same();
                    };
                }));
            }
            TestSupport.await(watching, () -> "watchers did not start");
            worker.tell("fine");
            worker.tell("crash");
            worker.tell("never handled");
            TestSupport.await(told, () -> notices.size() + " notices");
            Terminated t = system.whenTerminated(worker).get(LONG);
            assertSame(worker, t.ref());
            assertTrue(t.failed());
            assertEquals("crash requested", t.reason().getMessage());
            // Every watcher has been told once; give any duplicate a chance to show up by
            // round-tripping a message through each watcher's mailbox (FIFO after the notice).
            assertEquals(watchers, notices.size());
            for (Object n : notices) {
                assertEquals(t, n);
            }
            assertFalse(worker.isAlive());
            assertEquals(1, system.failureCount());
            assertEquals(List.of(t), failures);
            assertTrue(system.lookup("worker").isEmpty(), "name freed on death");
            // "never handled" was dead-lettered, or is, once the drain is over
            TestSupport.awaitCondition(() -> system.deadLetterCount() == 1, () -> system.deadLetterCount() + " dead letters");
            worker.tell("after death");
            assertEquals(2, system.deadLetterCount());
        }
    }

    @Test
    void watchingADeadActorGivesOneNoticeAtOnceAndWatchWithMapsIt() {
        try (ActorSystem system = ActorSystem.builder().name("watch-dead").maxProcs(1).build()) {
            ActorRef<String> a = system.spawn((ctx, s) -> Behavior.stopped());
            a.tell("stop");
            system.whenTerminated(a).get(LONG);
            record Down(String who, boolean failed) {
            }
            AtomicReference<Object> got = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(1);
            system.spawn(Behavior.<Object>setup(ctx -> {
                ctx.watchWith(a, t -> new Down(t.ref().name(), t.failed()));
                return (c, msg) -> {
                    got.set(msg);
                    done.countDown();
                    return Behavior.same();
                };
            }));
            TestSupport.await(done, () -> "no notice");
            assertEquals(new Down(a.name(), false), got.get());
        }
    }

    @Test
    void aWatcherThatDiesFirstIsNotToldAndUnwatchWorks() {
        try (ActorSystem system = ActorSystem.builder().name("watch-cleanup").maxProcs(2).build()) {
            ActorRef<String> target = system.spawn((ctx, s) -> Behavior.stopped());
            ActorRef<String> other = system.spawn((ctx, s) -> Behavior.stopped());
            CountDownLatch watching = new CountDownLatch(1);
            List<Object> got = Collections.synchronizedList(new ArrayList<>());
            ActorRef<Object> watcher = system.spawn(Behavior.setup(ctx -> {
                ctx.watch(target);
                ctx.watch(other);
                ctx.unwatch(other);
                watching.countDown();
                return (c, msg) -> {
                    got.add(msg);
                    return Behavior.stopped();
                };
            }));
            TestSupport.await(watching, () -> "watcher not started");
            other.tell("stop");
            system.whenTerminated(other).get(LONG);
            watcher.tell("stop");
            system.whenTerminated(watcher).get(LONG);
            target.tell("stop");
            system.whenTerminated(target).get(LONG);
            assertEquals(List.of("stop"), got, "no notice for the unwatched actor");
            assertEquals(0, system.deadLetterCount(), "no notice sent to the dead watcher");
        }
    }

    @Test
    void namesAreUniqueAmongLiveActorsAndFreedOnDeath() {
        try (ActorSystem system = ActorSystem.builder().name("names").maxProcs(2).build()) {
            ActorRef<String> a = system.spawn((ctx, s) -> Behavior.stopped(), "svc");
            assertEquals("svc", a.name());
            assertSame(a, system.<String>lookup("svc").orElseThrow());
            assertThrows(IllegalArgumentException.class, () -> system.spawn((ctx, s) -> Behavior.same(), "svc"));
            assertThrows(IllegalArgumentException.class, () -> system.spawnProcess(p -> { }, Props.named("svc")));
            // A watcher re-registers the name as soon as it hears of the death.
            CountDownLatch reborn = new CountDownLatch(1);
            system.spawn(Behavior.<Object>setup(ctx -> {
                ctx.watch(a);
                return (c, msg) -> {
                    c.spawn((cx, s) -> Behavior.same(), "svc");
                    reborn.countDown();
                    return Behavior.same();
                };
            }));
            a.tell("die");
            TestSupport.await(reborn, () -> "no rebirth");
            ActorRef<Object> b = system.lookup("svc").orElseThrow();
            assertNotSame(a, b);
            assertTrue(b.isAlive());
            assertTrue(system.lookup("nobody").isEmpty());
            // Anonymous actors get distinct generated names.
            assertNotEquals(system.spawn((ctx, s) -> Behavior.same()).name(), system.spawn((ctx, s) -> Behavior.same()).name());
        }
    }

    @Test
    void deadLettersAreCountedAndPublished() {
        try (ActorSystem system = ActorSystem.builder().name("dead-letters").maxProcs(2).build()) {
            List<DeadLetter> seen = Collections.synchronizedList(new ArrayList<>());
            Runnable unsubscribe = system.onDeadLetter(seen::add);
            var channel = system.deadLetters(16);
            ActorRef<String> a = system.spawn((ctx, s) -> Behavior.stopped());
            a.tell("first"); // stops it
            system.whenTerminated(a).get(LONG);
            for (int i = 0; i < 10; i++) {
                a.tell("late " + i);
            }
            assertEquals(10, system.deadLetterCount());
            assertEquals(10, seen.size());
            for (int i = 0; i < 10; i++) {
                assertEquals(new DeadLetter("late " + i, a), seen.get(i));
                assertEquals(new DeadLetter("late " + i, a), channel.tryRecv().value());
            }
            unsubscribe.run();
            a.tell("unseen");
            assertEquals(11, system.deadLetterCount());
            assertEquals(10, seen.size());
        }
    }

    @Test
    void stopStopsChildrenBeforeTheirParentAndShutdownStopsEverything() {
        ActorSystem system = ActorSystem.builder().name("stop-order").maxProcs(2).build();
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        AtomicReference<ActorRef<Object>> child = new AtomicReference<>();
        AtomicReference<ActorRef<Object>> grandchild = new AtomicReference<>();
        CountDownLatch built = new CountDownLatch(1);
        ActorRef<Object> parent = system.spawn(Behavior.setup(ctx -> {
            child.set(ctx.spawn(Behavior.setup(c2 -> {
                grandchild.set(c2.spawnProcess(p -> {
                    while (true) {
                        p.receive();
                    }
                }, Props.named("grandchild")));
                built.countDown();
                return (c, m) -> Behavior.same();
            }), "child"));
            return (c, m) -> Behavior.same();
        }), "parent");
        TestSupport.await(built, () -> "tree not built");
        for (ActorRef<?> r : List.of(parent, child.get(), grandchild.get())) {
            system.whenTerminated(r).whenComplete((t, e) -> order.add(t.ref().name()));
        }
        // A second tree, stopped only by the shutdown.
        ActorRef<Object> other = system.spawn(Behavior.setup(ctx -> {
            ctx.spawn((c, m) -> Behavior.same(), "other-child");
            return (c, m) -> Behavior.same();
        }), "other");
        TestSupport.awaitCondition(() -> system.liveActors() == 5, () -> system.liveActors() + " live");
        parent.stop();
        system.whenTerminated(parent).get(LONG);
        assertEquals(List.of("grandchild", "child", "parent"), order);
        assertFalse(child.get().isAlive());
        assertEquals(2, system.liveActors());
        assertTrue(other.isAlive());

        List<Thread> threads = Scheduler.of(system.runtime()).threads();
        assertFalse(threads.isEmpty());
        assertTrue(system.shutdown(LONG), "clean shutdown");
        assertFalse(other.isAlive());
        assertEquals(0, system.liveActors());
        assertTrue(system.runtime().isClosed());
        for (Thread t : threads) {
            assertFalse(t.isAlive(), t + " still alive");
        }
        assertTrue(Scheduler.of(system.runtime()).threads().isEmpty());
        assertEquals(0, Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("stop-order")).count(), "no thread of the system left");
        assertThrows(IllegalStateException.class, () -> system.spawn((c, m) -> Behavior.same()));
    }

    @Test
    void shutdownOfASystemOnASharedRuntimeLeavesTheRuntimeRunning() {
        try (var rt = io.gmp4j.GoRuntime.builder().name("shared-rt").maxProcs(1).build()) {
            ActorSystem system = ActorSystem.builder().name("on-shared").runtime(rt).build();
            AtomicInteger n = new AtomicInteger();
            for (int i = 0; i < 100; i++) {
                system.spawn((ctx, s) -> {
                    n.incrementAndGet();
                    return Behavior.same();
                }).tell("x");
            }
            assertTrue(system.shutdown(LONG));
            assertEquals(0, system.liveActors());
            assertFalse(rt.isClosed());
            TestSupport.runInGoroutine(rt, () -> { });
        }
    }
}
