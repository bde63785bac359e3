package io.gmp4j.actor;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.actor.CounterActor.Get;
import io.gmp4j.actor.CounterActor.Inc;
import io.gmp4j.actor.CounterActor.Msg;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.RecvChan;
import io.gmp4j.chan.Select;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.gmp4j.Go.go;
import static io.gmp4j.actor.CounterActor.counter;
import static org.junit.jupiter.api.Assertions.*;

/** The examples of the package's Javadoc, compiled (and run where they end). */
@ExtendWith(NoUncaughtExceptions.class)
class JavadocExamplesTest {
    record Ping(ActorRef<Object> from) {
    }

    record Urgent() {
    }

    record Request(ActorRef<String> replyTo) {
    }

    record Count(Integer n) {
    }

    record Failed(Throwable t) {
    }

    record WorkerDown(Terminated t) {
    }

    @Test
    void actorRefSystemAndBehaviorExamples() {
        try (ActorSystem system = ActorSystem.create("demo")) {
            ActorRef<String> printer = system.spawn((ctx, s) -> {
                System.out.println(s);
                return Behavior.same();
            });
            printer.tell("hello");
            ActorRef<Msg> counter = system.spawn(counter(0));
            counter.tell(new Inc());
            int n = counter.<Integer>ask(Get::new, Duration.ofSeconds(1)).get();
            assertEquals(1, n);
            try {
                int m = counter.<Integer>ask(Get::new, Duration.ofSeconds(1)).get();
                assertEquals(1, m);
            } catch (AskTimeoutException e) {
                fail(e);
            }
            ActorRef<Request> server = system.spawn((ctx, r) -> Behavior.stopped());
            try {
                server.ask(Request::new, Duration.ofSeconds(1)).get();
            } catch (ActorStoppedException e) {
                // the server is gone
            }

            ActorRef<String> greeter = system.spawn((ctx, who) -> {
                System.out.println("hello " + who);
                return Behavior.same();
            }, "greeter");
            system.<String>lookup("greeter").ifPresent(g -> g.tell("world"));
            assertSame(greeter, system.lookup("greeter").orElseThrow());

            Behavior<String> logger = (ctx, s) -> Behavior.same();
            ActorRef<String> log = system.spawn(logger, Props.named("log").withThroughput(16));
            ActorRef<String> a = system.spawn((ctx, s) -> Behavior.same(), Props.named("a").withThroughput(8));
            assertNotEquals(log, a);

            Behavior<String> echo = (ctx, s) -> {
                System.out.println(s);
                return Behavior.same();
            };
            Behavior<String> once = (ctx, s) -> Behavior.stopped();
            Behavior<Object> parent = Behavior.setup(ctx -> {
                ActorRef<String> child = ctx.spawn((c, s) -> Behavior.same());
                ctx.watch(child);
                return (c, msg) -> Behavior.same();
            });
            ActorRef<String> worker = system.spawn(echo);
            Behavior<Object> watcher = Behavior.setup(ctx -> {
                ctx.watch(worker);
                return (c, msg) -> {
                    if (msg instanceof Terminated t && t.failed()) {
                        System.out.println(t.ref().name() + " failed: " + t.reason());
                    }
                    return Behavior.same();
                };
            });
            Behavior<Object> supervisorLike = Behavior.setup(ctx -> {
                ActorRef<String> w = ctx.spawn((c, s) -> Behavior.same(), "worker");
                ctx.watch(w);
                return (c, msg) -> msg instanceof Terminated ? Behavior.stopped() : Behavior.same();
            });
            Behavior<WorkerDown> typed = Behavior.setup(ctx -> {
                ctx.watchWith(worker, WorkerDown::new);
                ActorRef<String> child = ctx.spawnProcess(p -> System.out.println(p.receive()), Props.DEFAULT);
                child.tell("hi");
                ctx.stop(child);
                return (c, msg) -> Behavior.same();
            });
            for (Behavior<?> b : java.util.List.of(once, parent, watcher, supervisorLike, typed)) {
                assertNotNull(b);
            }
            system.spawn(parent);
            system.spawn(watcher);
            system.spawn(supervisorLike);
            system.spawn(typed);
            worker.stop();
            system.whenTerminated(worker).get(Duration.ofSeconds(5));
        }
    }

    @Test
    void replyDeadLetterProcessAndActorsExamples() {
        try (ActorSystem system = ActorSystem.builder().name("app").maxProcs(2).throughput(16).build()) {
            system.onDeadLetter(d -> System.err.println("undelivered " + d.message() + " to " + d.recipient().name()));
            Runnable unsubscribe = system.onDeadLetter(d -> System.err.println(d));
            unsubscribe.run();
            system.onFailure(t -> System.err.println(t.ref().name() + " failed: " + t.reason()));
            RecvChan<DeadLetter> dl = system.deadLetters(1024);
            ActorRef<Msg> counter = system.spawn(counter(41));
            TestSupport.runInGoroutine(system.runtime(), () -> {
                go(() -> {
                    for (DeadLetter d : dl) {
                        System.err.println(d);
                    }
                });
                Chan<String> done = new Chan<>();
                Reply<Integer> r = counter.ask(Get::new, Duration.ofSeconds(1));
                Select s = new Select();
                int answer = s.recv(r.channel()), quit = s.recv(done);
                if (s.select() == answer && s.ok()) {
                    int m = s.value();
                    assertEquals(41, m);
                } else {
                    fail("quit " + quit);
                }
                int n = r.get();
                assertEquals(41, n);
                r.whenComplete((v, err) -> System.out.println(err == null ? v : err));
                CompletableFuture<Integer> f = r.toCompletableFuture();
                assertEquals(41, f.join());
                if (r.isDone() && r.failure() instanceof AskTimeoutException) {
                    fail();
                }
            });
            CompletableFuture<Object> piped = new CompletableFuture<>();
            system.spawn(Behavior.<Object>setup(ctx -> {
                counter.<Integer>ask(Get::new, Duration.ofSeconds(1))
                        .pipeTo(ctx.self(), Count::new, Failed::new);
                return (c, msg) -> {
                    piped.complete(msg);
                    return Behavior.stopped();
                };
            }));
            assertEquals(new Count(41), piped.join());

            ActorRef<Object> echo = system.spawnProcess(p -> {
                while (true) {
                    if (p.receive() instanceof Ping(ActorRef<Object> from)) {
                        from.tell("pong");
                    }
                }
            });
            ActorRef<Object> selective = system.spawnProcess(self -> {
                Object first = self.receive();
                Object urgent = self.receive(m -> m instanceof Urgent);
                Object maybe = self.receive(Duration.ofMillis(100));
                assertNotNull(first);
                assertNotNull(urgent);
                assertNull(maybe);
            });
            selective.tell("first");
            selective.tell(new Urgent());
            system.whenTerminated(selective).get(Duration.ofSeconds(5));
            echo.stop();
            assertFalse(system.isShutDown());
            assertEquals("app", system.name());
        }
        ActorSystem shared = ActorSystem.builder().runtime(GoRuntime.defaultRuntime()).build();
        assertTrue(shared.shutdown(Duration.ofSeconds(5)));
        ActorRef<Object> p = Actors.spawnProcess(self -> System.out.println(self.receive()));
        ActorRef<String> a = Actors.spawn((ctx, s) -> Behavior.same());
        p.tell("hi");
        a.stop();
        Actors.system().whenTerminated(p).get(Duration.ofSeconds(5));
        long dead = Actors.system().deadLetterCount();
        assertTrue(dead >= 0);
    }

    record Job(int n) {
    }

    @Test
    void supervisionAndLinkExamples() {
        try (ActorSystem system = ActorSystem.builder().name("sup-examples").maxProcs(2).build()) {
            system.onFailure(t -> { }); // the examples fail on purpose
            // package-info
            ChildSpec<String> worker = ChildSpec.behavior("worker", (ctx, s) -> {
                if (s.isEmpty()) {
                    throw new IllegalArgumentException("empty");
                }
                return Behavior.same();
            });
            Supervisor sup = system.spawnSupervisor(SupervisorSpec.builder()
                    .strategy(SupervisionStrategy.ONE_FOR_ONE)
                    .intensity(3, Duration.ofSeconds(5))
                    .child(worker)
                    .build());
            sup.child(worker).tell("");
            sup.child(worker).tell("work");
            system.spawn(Behavior.setup(ctx -> {
                ctx.trapExits(true);
                ctx.link(sup.ref());
                return (c, msg) -> msg instanceof ExitSignal e ? Behavior.stopped() : Behavior.same();
            }));

            // Supervisor, ChildSpec, Restart
            Behavior<Job> jobHandler = (ctx, j) -> Behavior.same();
            ChildSpec<Job> jobWorker = ChildSpec.behavior("worker", jobHandler);
            Supervisor sup2 = system.spawnSupervisor(SupervisorSpec.builder()
                    .strategy(SupervisionStrategy.ONE_FOR_ONE)
                    .intensity(3, Duration.ofSeconds(5))
                    .child(jobWorker)
                    .build());
            ActorRef<Job> w = sup2.child(jobWorker);
            w.tell(new Job(1));
            ChildSpec<Job> transientWorker = ChildSpec.behavior("worker", jobHandler)
                    .withRestart(Restart.TRANSIENT)
                    .withProps(Props.named("worker").withMailbox(100, Overflow.FAIL));
            ProcessBody<Object> pollerBody = self -> {
                while (true) {
                    System.out.println(self.receive());
                }
            };
            ChildSpec<Object> poller = ChildSpec.process("poller", pollerBody);
            assertEquals("poller", poller.id());
            Behavior<String> b = (ctx, s) -> Behavior.same();
            ChildSpec<String> log = ChildSpec.behavior("log", b).withProps(Props.named("log"));
            ChildSpec<String> once = ChildSpec.behavior("once", b).withRestart(Restart.TEMPORARY);
            ChildSpec<Object> p = ChildSpec.process("p", self -> {
                while (true) {
                    self.receive();
                }
            });

            // SupervisorSpec, SupervisionStrategy, nested supervisors
            Behavior<String> db = (ctx, s) -> Behavior.same();
            Behavior<String> cache = (ctx, s) -> Behavior.same();
            SupervisorSpec restForOne = SupervisorSpec.builder()
                    .strategy(SupervisionStrategy.REST_FOR_ONE)
                    .child(ChildSpec.behavior("db", db))
                    .child(ChildSpec.behavior("cache", cache))
                    .build();
            SupervisorSpec spec = SupervisorSpec.builder()
                    .strategy(SupervisionStrategy.ONE_FOR_ALL)
                    .intensity(3, Duration.ofSeconds(10))
                    .child(ChildSpec.behavior("db", db))
                    .child(ChildSpec.process("poller", pollerBody).withRestart(Restart.TRANSIENT))
                    .build();
            ChildSpec<Void> workers = ChildSpec.supervisor("workers", restForOne);
            SupervisorSpec top = SupervisorSpec.builder().child(workers).child(transientWorker).child(log).child(once).child(p).build();
            Supervisor root = system.spawnSupervisor(top, Props.named("root"));
            assertEquals("root", root.name());
            assertTrue(root.isAlive());
            ActorRef<?> ref = root.child(log.id());
            assertNotNull(ref);
            assertEquals(Restart.TEMPORARY, once.restart());
            assertEquals("log", log.props().name());
            for (ChildSpec<?> c : spec.children()) {
                System.out.println(c.id());
            }
            assertEquals(SupervisionStrategy.ONE_FOR_ALL, spec.strategy());
            assertEquals(3, spec.maxRestarts());
            assertEquals(Duration.ofSeconds(10), spec.period());
            Supervisor s3 = system.spawnSupervisor(spec);
            s3.stop();

            // ActorContext.spawnSupervisor, link, unlink, trapExits; ExitSignal; NoSuchActorException
            ActorRef<String> partner = system.spawn((ctx, s) -> Behavior.same());
            ActorRef<Object> guard = system.spawn(Behavior.setup(ctx -> {
                Supervisor ws = ctx.spawnSupervisor(SupervisorSpec.builder()
                        .child(ChildSpec.behavior("worker2", jobHandler))
                        .build());
                Supervisor named = ctx.spawnSupervisor(restForOne, Props.named("workers"));
                ctx.link(partner);
                ctx.unlink(partner);
                ctx.trapExits(true);
                ctx.link(ws.ref());
                assertNotNull(named);
                return (c, msg) -> {
                    if (msg instanceof ExitSignal e && e.failed()) {
                        System.out.println(e.ref().name() + " died: " + e.reason());
                    }
                    if (msg instanceof ExitSignal e && e.reason() instanceof NoSuchActorException) {
                        System.out.println("the actor was gone before we linked");
                    }
                    return Behavior.same();
                };
            }));
            guard.tell("hello");

            // RestartLimitExceededException
            Supervisor giveUp = system.spawnSupervisor(SupervisorSpec.builder().intensity(0, Duration.ofSeconds(1))
                    .child(ChildSpec.process("quitter", self -> { }))
                    .build());
            Terminated t = system.whenTerminated(giveUp.ref()).get(Duration.ofSeconds(5));
            if (t.reason() instanceof RestartLimitExceededException e) {
                System.err.println(e.getMessage() + ", last: " + e.getCause());
            } else {
                fail("expected the supervisor to give up: " + t);
            }
        }
    }
}
