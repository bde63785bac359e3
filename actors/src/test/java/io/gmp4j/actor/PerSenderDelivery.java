package io.gmp4j.actor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The delivery tests' load and its check ({@link DeliveryTest}, {@link BoundedMailboxTest}):
 * senders, goroutines and platform threads together, each telling its numbered
 * {@link Msg}s to one actor, and a {@link Checker} on the consumer's side for exactly-once and
 * per-sender order.
 */
final class PerSenderDelivery {
    private PerSenderDelivery() {
    }

    /** Message {@code seq} (from 0) of sender {@code sender}. */
    record Msg(int sender, int seq) {
    }

    /** Checks exactly-once and per-sender FIFO; touched only by the one consumer. */
    static class Checker {
        final int[] next;
        long received;
        final List<String> errors = new ArrayList<>();

        Checker(int senders) {
            next = new int[senders];
        }

        void accept(Msg m) {
            received++;
            if (m.seq() != next[m.sender()]) {
                if (errors.size() < 10) {
                    errors.add("sender " + m.sender() + ": expected " + next[m.sender()] + ", got " + m.seq());
                }
                next[m.sender()] = Math.max(next[m.sender()], m.seq() + 1);
            } else {
                next[m.sender()]++;
            }
        }

        /**
         * Asserts, once the consumer has stopped, that every sender's {@code perSender} messages
         * arrived, each once and in order: no errors, exactly {@code senders * perSender} in all.
         */
        void assertEveryMessageOnceInOrder(int perSender) {
            assertEquals(List.of(), errors);
            assertEquals((long) next.length * perSender, received);
            for (int s = 0; s < next.length; s++) {
                assertEquals(perSender, next[s], "sender " + s);
            }
        }
    }

    /** As {@link #startSenders(ActorSystem, ActorRef, int, int, int, CountDownLatch)}, every sender starting at once. */
    static List<Thread> startSenders(ActorSystem system, ActorRef<Msg> sink, int goroutines, int threads, int perSender) {
        return startSenders(system, sink, goroutines, threads, perSender, new CountDownLatch(0));
    }

    /**
     * Starts {@code goroutines} senders on the system's runtime (ids 0 to goroutines - 1) and
     * {@code threads} platform threads (the next ids), each waiting for {@code start} and then
     * telling {@code perSender} messages to {@code sink}; returns the platform threads.
     */
    static List<Thread> startSenders(ActorSystem system, ActorRef<Msg> sink, int goroutines, int threads,
            int perSender, CountDownLatch start) {
        for (int s = 0; s < goroutines; s++) {
            int id = s;
            system.runtime().go(() -> send(sink, id, perSender, start));
        }
        List<Thread> platform = new ArrayList<>();
        for (int s = 0; s < threads; s++) {
            int id = goroutines + s;
            platform.add(Thread.ofPlatform().name("sender-" + id).start(() -> send(sink, id, perSender, start)));
        }
        return platform;
    }

    private static void send(ActorRef<Msg> sink, int id, int perSender, CountDownLatch start) {
        try {
            start.await();
        } catch (InterruptedException e) {
            return;
        }
        for (int i = 0; i < perSender; i++) {
            sink.tell(new Msg(id, i));
        }
    }
}
