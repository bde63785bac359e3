package io.gmp4j.bench;

import io.gmp4j.bench.SavinaActors.Handler;
import io.gmp4j.bench.SavinaActors.Ref;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Savina actor benchmarks (Imam and Sarkar, "Savina - An Actor Benchmark Suite", AGERE!
 * 2014; github.com/shamsimam/savina), written once against {@link SavinaActors} and run by
 * gmp4j behaviour actors, Pekko classic actors and virtual threads with
 * {@code LinkedBlockingQueue} mailboxes. Each body creates its actors, runs to completion and
 * returns a result that {@link BenchChild} checks against {@code *Expected}, so a broken
 * implementation fails loudly. The body is called from a platform thread, which waits for the
 * actors' answer; actor creation is inside the timed region, as in Savina. Every actor stops by
 * the end of a run.
 */
public final class SavinaBodies {
    private SavinaBodies() {
    }

    /**
     * PingPong: round trips between two actors. Savina's default is N = 40,000
     * ({@code PingPongConfig.N}); issue 5's reference figures use 1,000,000 round trips, and so
     * does this benchmark.
     */
    public static final int PINGPONG_N = 1_000_000;
    /** Counting: messages from a producer to a counter; Savina's default N = 1,000,000 ({@code CountingConfig.N}). */
    public static final int COUNTING_N = 1_000_000;
    /** ThreadRing: Savina's defaults N = 100 actors ({@code ThreadRingConfig.N}) and R = 100,000 hops ({@code .R}). */
    public static final int RING_ACTORS = 100;
    public static final int RING_HOPS = 100_000;
    /** Fork-join throughput: Savina's defaults A = 60 actors, N = 10,000 messages each ({@code ThroughputConfig}). */
    public static final int FJT_ACTORS = 60;
    public static final int FJT_MESSAGES = 10_000;
    /** Fork-join creation: Savina's default N = 40,000 actors, one message each ({@code ForkJoinConfig.N}). */
    public static final int FJC_ACTORS = 40_000;
    /** Big: Savina's defaults W = 120 actors ({@code BigConfig.W}), N = 20,000 pings each ({@code BigConfig.N}). */
    public static final int BIG_ACTORS = 120;
    public static final int BIG_PINGS = 20_000;
    /** Chameneos: Savina's defaults 100 chameneos ({@code ChameneosConfig.numChameneos}), 200,000 meetings ({@code .numMeetings}). */
    public static final int CHAMENEOS = 100;
    public static final int CHAMENEOS_MEETINGS = 200_000;

    /** How long a body waits for its actors before it declares them stuck. */
    static final long AWAIT_SECONDS = Long.getLong("gmp4j.bench.savina.await", 300);

    /** A run's answer: one actor (or a count of them) sets it, the main thread waits. */
    static final class Done {
        private final CountDownLatch latch;
        final AtomicLong value = new AtomicLong();

        Done(int count) {
            latch = new CountDownLatch(count);
        }

        void add(long v) {
            value.addAndGet(v);
            latch.countDown();
        }

        long await(String what) {
            try {
                if (!latch.await(AWAIT_SECONDS, TimeUnit.SECONDS)) {
                    throw new AssertionError(what + ": no answer within " + AWAIT_SECONDS + " s ("
                            + latch.getCount() + " actors still owe one): an actor is stuck or failed");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return value.get();
        }
    }

    private static final Object START = new Object() {
        @Override
        public String toString() {
            return "Start";
        }
    };
    private static final Object STOP = new Object() {
        @Override
        public String toString() {
            return "Stop";
        }
    };

    private static AssertionError unexpected(String who, Object msg) {
        return new AssertionError(who + ": unexpected message " + msg);
    }

    // =====================================================================================
    // PingPong
    // =====================================================================================

    private record Ping(Ref sender) {
    }

    private static final Object PONG = new Object() {
        @Override
        public String toString() {
            return "Pong";
        }
    };

    /**
     * Savina's PingPong: the ping actor sends a ping (carrying its reference) to the pong actor,
     * which answers each with a pong, n round trips; then ping sends Stop and pong reports how
     * many pings it answered. Returns that count (expected: n).
     */
    public static long pingpong(SavinaActors a, int n) {
        Done done = new Done(1);
        Ref pong = a.spawn(self -> new Handler() {
            long pings;

            @Override
            public boolean receive(Object msg) {
                if (msg instanceof Ping p) {
                    pings++;
                    p.sender().tell(PONG);
                    return true;
                }
                if (msg == STOP) {
                    done.add(pings);
                    return false;
                }
                throw unexpected("pong", msg);
            }
        });
        Ref ping = a.spawn(self -> new Handler() {
            final Ping myPing = new Ping(self);
            int left = n;

            @Override
            public boolean receive(Object msg) {
                if (msg == START || msg == PONG) {
                    if (left > 0) {
                        left--;
                        pong.tell(myPing);
                        return true;
                    }
                    pong.tell(STOP);
                    return false;
                }
                throw unexpected("ping", msg);
            }
        });
        ping.tell(START);
        return done.await("pingpong");
    }

    // =====================================================================================
    // Counting
    // =====================================================================================

    private static final Object INCREMENT = new Object() {
        @Override
        public String toString() {
            return "Increment";
        }
    };

    private record Retrieve(Ref sender) {
    }

    private record Count(long n) {
    }

    /**
     * Savina's Counting: a producer actor sends n increments to a counter actor, then a
     * retrieve; the counter answers with its count, which the producer reports (expected: n).
     */
    public static long counting(SavinaActors a, int n) {
        Done done = new Done(1);
        Ref counter = a.spawn(self -> new Handler() {
            long count;

            @Override
            public boolean receive(Object msg) {
                if (msg == INCREMENT) {
                    count++;
                    return true;
                }
                if (msg instanceof Retrieve r) {
                    r.sender().tell(new Count(count));
                    return false;
                }
                throw unexpected("counter", msg);
            }
        });
        Ref producer = a.spawn(self -> msg -> {
            if (msg == START) {
                for (int i = 0; i < n; i++) {
                    counter.tell(INCREMENT);
                }
                counter.tell(new Retrieve(self));
                return true;
            }
            if (msg instanceof Count c) {
                done.add(c.n());
                return false;
            }
            throw unexpected("producer", msg);
        });
        producer.tell(START);
        return done.await("counting");
    }

    // =====================================================================================
    // ThreadRing
    // =====================================================================================

    /** A token with the hops still to go (a new message per hop, as in Savina). */
    private record Token(int left) {
    }

    /** Goes round the ring once when the token is spent, summing the hops each actor forwarded. */
    private record Exit(int left, long hops) {
    }

    /**
     * Savina's ThreadRing: {@code actors} actors in a ring pass a token {@code hops} times; the
     * actor that receives it spent ({@code left == 0}) sends an exit message round the ring, each
     * actor adding the hops it forwarded and stopping. Returns
     * {@code hopsCounted * actors + index of the actor that got the spent token}: see
     * {@link #threadringExpected}.
     */
    public static long threadring(SavinaActors a, int actors, int hops) {
        Done done = new Done(1);
        Ref[] ring = new Ref[actors];
        for (int i = 0; i < actors; i++) {
            int id = i;
            ring[i] = a.spawn(self -> new Handler() {
                long forwarded;

                @Override
                public boolean receive(Object msg) {
                    Ref next = ring[(id + 1) % actors];
                    if (msg instanceof Token t) {
                        if (t.left() > 0) {
                            forwarded++;
                            next.tell(new Token(t.left() - 1));
                        } else {
                            next.tell(new Exit(actors - 1, forwarded * actors + id));
                            return false;
                        }
                        return true;
                    }
                    if (msg instanceof Exit e) {
                        if (e.left() > 1) {
                            next.tell(new Exit(e.left() - 1, e.hops() + forwarded * actors));
                        } else {
                            done.add(e.hops() + forwarded * actors);
                        }
                        return false;
                    }
                    throw unexpected("ring actor " + id, msg);
                }
            });
        }
        // ring[] is complete before the first message: each handler reads it after a receive
        ring[0].tell(new Token(hops));
        return done.await("threadring");
    }

    /** The hops, times the ring size, plus the index of the actor that gets the spent token. */
    public static long threadringExpected(int actors, int hops) {
        return (long) hops * actors + hops % actors;
    }

    // =====================================================================================
    // Fork-join throughput and creation
    // =====================================================================================

    /** Savina's {@code ThroughputConfig.performComputation(37.2)}: a little floating-point work per message. */
    static double compute(double theta) {
        double sint = Math.sin(theta);
        double res = sint * sint;
        if (res <= 0) {
            throw new IllegalStateException("computation gave " + res);
        }
        return res;
    }

    private static final Object WORK = new Object() {
        @Override
        public String toString() {
            return "Work";
        }
    };

    /**
     * Savina's Fork-join throughput: {@code actors} actors each receive {@code messages}
     * messages, sent round-robin from the main thread; each message does
     * {@link #compute}{@code (37.2)}. Each actor reports how many it handled and stops after
     * {@code messages}. Returns the total (expected: actors * messages).
     */
    public static long fjThroughput(SavinaActors a, int actors, int messages) {
        Done done = new Done(actors);
        Ref[] workers = new Ref[actors];
        for (int i = 0; i < actors; i++) {
            workers[i] = a.spawn(self -> new Handler() {
                int handled;
                double sink;

                @Override
                public boolean receive(Object msg) {
                    if (msg != WORK) {
                        throw unexpected("fj-throughput worker", msg);
                    }
                    sink += compute(37.2);
                    if (++handled == messages) {
                        done.add(sink > 0 ? handled : -1);
                        return false;
                    }
                    return true;
                }
            });
        }
        for (int m = 0; m < messages; m++) {
            for (Ref w : workers) {
                w.tell(WORK);
            }
        }
        return done.await("fj-throughput");
    }

    /**
     * Savina's Fork-join creation: {@code actors} actors are created from the main thread, each
     * sent one message on which it does {@link #compute}{@code (37.2)}, reports and stops.
     * Returns the number of reports (expected: actors).
     */
    public static long fjCreation(SavinaActors a, int actors) {
        Done done = new Done(actors);
        for (int i = 0; i < actors; i++) {
            Ref r = a.spawn(self -> msg -> {
                if (msg != WORK) {
                    throw unexpected("fj-creation actor", msg);
                }
                done.add(compute(37.2) > 0 ? 1 : -1);
                return false;
            });
            r.tell(WORK);
        }
        return done.await("fj-creation");
    }

    // =====================================================================================
    // Big
    // =====================================================================================

    private record BigPing(int from) {
    }

    private static final Object BIG_PONG = new Object() {
        @Override
        public String toString() {
            return "BigPong";
        }
    };

    /**
     * Savina's Big: {@code actors} actors each send {@code pings} pings, one at a time, each to
     * a neighbour picked at random ({@code new Random(id)}, not itself); the neighbour answers
     * with a pong, on which the sender sends its next ping. When an actor has had all its pongs
     * it tells the sink (the main thread); once all have, each actor is sent an exit and reports
     * the pings it answered. Returns the pings answered (expected: actors * pings).
     */
    public static long big(SavinaActors a, int actors, int pings) {
        Done finished = new Done(actors);
        Done answered = new Done(actors);
        Ref[] peers = new Ref[actors];
        for (int i = 0; i < actors; i++) {
            int id = i;
            peers[i] = a.spawn(self -> new Handler() {
                final Random random = new Random(id);
                final BigPing myPing = new BigPing(id);
                int sent;
                long pingsAnswered;

                void sendPing() {
                    int to = random.nextInt(actors - 1);
                    peers[to >= id ? to + 1 : to].tell(myPing);
                    sent++;
                }

                @Override
                public boolean receive(Object msg) {
                    if (msg instanceof BigPing p) {
                        pingsAnswered++;
                        peers[p.from()].tell(BIG_PONG);
                        return true;
                    }
                    if (msg == BIG_PONG) {
                        if (sent == pings) {
                            finished.add(sent);
                        } else {
                            sendPing();
                        }
                        return true;
                    }
                    if (msg == START) {
                        sendPing();
                        return true;
                    }
                    if (msg == STOP) {
                        answered.add(pingsAnswered);
                        return false;
                    }
                    throw unexpected("big actor " + id, msg);
                }
            });
        }
        for (Ref p : peers) {
            p.tell(START);
        }
        long sent = finished.await("big (pings)");
        for (Ref p : peers) {
            p.tell(STOP);
        }
        long got = answered.await("big (exit)");
        if (sent != got) {
            throw new AssertionError("big: " + sent + " pings sent but " + got + " answered");
        }
        return got;
    }

    // =====================================================================================
    // Chameneos
    // =====================================================================================

    /** The chameneos' colours; FADED when the mall closes. */
    enum Colour {
        BLUE, RED, YELLOW, FADED;

        /** The colour two chameneos of colours this and other both take after meeting. */
        Colour complement(Colour other) {
            if (this == other) {
                return this;
            }
            return switch (this) {
                case BLUE -> other == RED ? YELLOW : RED;
                case RED -> other == BLUE ? YELLOW : BLUE;
                case YELLOW -> other == BLUE ? RED : BLUE;
                case FADED -> FADED;
            };
        }
    }

    private record Meet(Ref from, Colour colour) {
    }

    private record Change(Colour colour) {
    }

    private record MeetingCount(long n) {
    }

    /**
     * Savina's Chameneos: {@code creatures} chameneo actors go to a mall actor to meet; the mall
     * pairs them, {@code meetings} times, telling the one that waited the newcomer's reference
     * and colour; it takes the complementary colour, tells the newcomer to change to it, and
     * both go back to the mall. When the meetings are spent the mall answers
     * each chameneo with an exit; each reports how many meetings it took part in and stops.
     * Returns the sum of those counts (expected: 2 * meetings).
     */
    public static long chameneos(SavinaActors a, int creatures, int meetings) {
        Done done = new Done(1);
        Ref mall = a.spawn(self -> new Handler() {
            int left = meetings;
            Meet waiting;
            int faded;
            long sum;

            @Override
            public boolean receive(Object msg) {
                if (msg instanceof Meet m) {
                    if (left > 0) {
                        if (waiting == null) {
                            waiting = m;
                        } else {
                            // as Savina: the waiting one hears of the newcomer, and tells it to change
                            left--;
                            waiting.from().tell(m);
                            waiting = null;
                        }
                    } else {
                        m.from().tell(STOP);
                    }
                    return true;
                }
                if (msg instanceof MeetingCount c) {
                    sum += c.n();
                    if (++faded == creatures) {
                        done.add(sum);
                        return false;
                    }
                    return true;
                }
                throw unexpected("mall", msg);
            }
        });
        Colour[] colours = {Colour.BLUE, Colour.RED, Colour.YELLOW};
        for (int i = 0; i < creatures; i++) {
            Colour initial = colours[i % 3];
            Ref c = a.spawn(self -> new Handler() {
                Colour colour = initial;
                long met;

                @Override
                public boolean receive(Object msg) {
                    if (msg instanceof Meet other) {
                        // the mall's notice: the other chameneo and its colour
                        colour = colour.complement(other.colour());
                        met++;
                        other.from().tell(new Change(colour));
                        mall.tell(new Meet(self, colour));
                        return true;
                    }
                    if (msg instanceof Change ch) {
                        colour = ch.colour();
                        met++;
                        mall.tell(new Meet(self, colour));
                        return true;
                    }
                    if (msg == START) {
                        mall.tell(new Meet(self, colour));
                        return true;
                    }
                    if (msg == STOP) {
                        colour = Colour.FADED;
                        mall.tell(new MeetingCount(met));
                        return false;
                    }
                    throw unexpected("chameneo", msg);
                }
            });
            c.tell(START);
        }
        return done.await("chameneos");
    }
}
