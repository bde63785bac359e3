package io.gmp4j.actor;

import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.*;

/**
 * One {@link Terminated} per watch: a watch lasts until its notice is handled, so watching
 * again before that changes nothing, watching again after it is a new watch, and an unwatch
 * drops a notice not yet handled. Each test ends with a marker the watcher sends itself after
 * the watches: the mailbox is FIFO, so a second notice would arrive before the marker.
 */
@ExtendWith(NoUncaughtExceptions.class)
class WatchOnceTest {
    private static final Duration LONG = Duration.ofSeconds(TestSupport.TIMEOUT_S);
    private static final String MARKER = "marker";
    private static final String HOLD = "hold";

    /** A stopped actor of {@code system}. */
    private static ActorRef<String> deadActor(ActorSystem system) {
        ActorRef<String> a = system.spawn((ctx, s) -> Behavior.stopped());
        a.tell("stop");
        system.whenTerminated(a).get(LONG);
        return a;
    }

    /** Records every message up to the marker, which counts {@code done} down. */
    private static Behavior<Object> recording(List<Object> got, CountDownLatch done, BiConsumer<ActorContext<Object>, Object> onMessage) {
        return (ctx, msg) -> {
            got.add(msg);
            onMessage.accept(ctx, msg);
            if (msg.equals(MARKER)) {
                done.countDown();
            }
            return Behavior.same();
        };
    }

    @Test
    void watchingADeadActorTwiceGivesOneTerminated() {
        try (ActorSystem system = ActorSystem.builder().name("watch-dead-twice").maxProcs(2).build()) {
            ActorRef<String> a = deadActor(system);
            List<Object> got = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch done = new CountDownLatch(1);
            system.spawn(Behavior.<Object>setup(ctx -> {
                ctx.watch(a);
                ctx.watch(a); // the first notice is queued, not handled: still the same watch
                ctx.self().tell(MARKER);
                return recording(got, done, (c, m) -> {
                });
            }));
            TestSupport.await(done, () -> "no marker: " + got);
            assertEquals(List.of(new Terminated(a, null), MARKER), got);
        }
    }

    @Test
    void watchWithADeadActorTwiceGivesOneMappedNotice() {
        try (ActorSystem system = ActorSystem.builder().name("watchwith-dead-twice").maxProcs(2).build()) {
            ActorRef<String> a = deadActor(system);
            List<Object> got = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch done = new CountDownLatch(1);
            system.spawn(Behavior.<Object>setup(ctx -> {
                ctx.watchWith(a, t -> "down " + t.ref().name());
                ctx.watchWith(a, t -> "again " + t.ref().name()); // changes nothing
                ctx.self().tell(MARKER);
                return recording(got, done, (c, m) -> {
                });
            }));
            TestSupport.await(done, () -> "no marker: " + got);
            assertEquals(List.of("down " + a.name(), MARKER), got);
        }
    }

    /**
     * The watcher is busy handling {@code hold} while the target dies, so the notice is
     * queued behind it; {@code whileQueued} then runs in the watcher with the notice sent and
     * not yet handled, and sends the marker.
     */
    private static List<Object> noticeQueuedWhile(String name, BiConsumer<ActorContext<Object>, ActorRef<String>> whileQueued) {
        try (ActorSystem system = ActorSystem.builder().name(name).maxProcs(2).build()) {
            ActorRef<String> target = system.spawn((ctx, s) -> Behavior.stopped());
            List<Object> got = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch watching = new CountDownLatch(1);
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            ActorRef<Object> watcher = system.spawn(Behavior.<Object>setup(ctx -> {
                ctx.watch(target);
                ctx.watch(target); // a live target watched twice: one watch
                watching.countDown();
                return recording(got, done, (c, m) -> {
                    if (m.equals(HOLD)) {
                        holding.countDown();
                        TestSupport.await(release, () -> "not released");
                        whileQueued.accept(c, target);
                        c.self().tell(MARKER);
                    }
                });
            }));
            TestSupport.await(watching, () -> "watcher did not start");
            watcher.tell(HOLD);
            TestSupport.await(holding, () -> "watcher not holding");
            target.tell("stop");
            // The watcher registered before this whenTerminated, and the listeners are told in
            // registration order, by one thread: once it returns the notice is in the mailbox.
            system.whenTerminated(target).get(LONG);
            release.countDown();
            TestSupport.await(done, () -> "no marker: " + got);
            List<Object> result = new ArrayList<>(got);
            result.replaceAll(m -> m instanceof Terminated t ? (t.ref() == target ? "T" : "other " + t) : m);
            return result;
        }
    }

    @Test
    void aLiveActorWatchedTwiceThenStoppedGivesOneTerminated() {
        assertEquals(List.of(HOLD, "T", MARKER), noticeQueuedWhile("watch-live-twice", (c, t) -> {
        }));
    }

    @Test
    void watchingAgainWhileTheNoticeIsQueuedGivesNoSecondOne() {
        assertEquals(List.of(HOLD, "T", MARKER), noticeQueuedWhile("watch-while-queued", ActorContext::watch));
    }

    @Test
    void unwatchDropsANoticeNotYetHandled() {
        assertEquals(List.of(HOLD, MARKER), noticeQueuedWhile("unwatch-while-queued", ActorContext::unwatch));
    }

    @Test
    void unwatchThenWatchWhileQueuedGivesExactlyOneNotice() {
        assertEquals(List.of(HOLD, "T", MARKER), noticeQueuedWhile("rewatch-while-queued", (c, t) -> {
            c.unwatch(t); // the queued notice answers a watch that is over: dropped
            c.watch(t);   // a new watch of a dead actor: its own notice, queued now
        }));
    }

    @Test
    void watchingAgainAfterTheNoticeWasHandledGivesANewOne() {
        try (ActorSystem system = ActorSystem.builder().name("watch-handle-watch").maxProcs(2).build()) {
            ActorRef<String> a = deadActor(system);
            List<Object> got = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch done = new CountDownLatch(1);
            system.spawn(Behavior.<Object>setup(ctx -> {
                ctx.watch(a);
                return recording(got, done, (c, m) -> {
                    if (m instanceof Terminated && got.size() == 1) {
                        c.watch(a); // the first watch ended with its handled notice: a new one
                        c.watch(a);
                        c.self().tell(MARKER);
                    }
                });
            }));
            TestSupport.await(done, () -> "no marker: " + got);
            Terminated t = new Terminated(a, null);
            assertEquals(List.of(t, t, MARKER), got);
        }
    }

    @Test
    void aProcessActorWatchingADeadActorTwiceGetsOneTerminatedAndANewOneAfterIt() {
        try (ActorSystem system = ActorSystem.builder().name("process-watch-twice").maxProcs(2).build()) {
            ActorRef<String> a = deadActor(system);
            List<Object> got = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch done = new CountDownLatch(1);
            system.spawnProcess(p -> {
                p.watch(a);
                p.watch(a);
                p.self().tell(MARKER);
                got.add(p.receive());
                got.add(p.receive());
                p.watch(a); // after the handled notice: a new watch
                p.watch(a);
                p.self().tell(MARKER);
                got.add(p.receive());
                got.add(p.receive());
                done.countDown();
            });
            TestSupport.await(done, () -> "process did not finish: " + got);
            Terminated t = new Terminated(a, null);
            assertEquals(List.of(t, MARKER, t, MARKER), got);
        }
    }
}
