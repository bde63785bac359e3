package io.gmp4j.vertx;

import io.gmp4j.runtime.Waiter;
import java.util.ArrayDeque;

/**
 * What a Vert.x stream (a WebSocket, a request body, an event-bus consumer) delivered and its one
 * reading goroutine has not taken yet: bounded by pausing the stream.
 *
 * <p>Invariants, under this object's monitor: the stream is paused (by the producer, on its
 * event loop, right after the offer that filled the inbox) from the moment {@code size} reaches
 * {@code capacity} until a take brings it down to {@code resumeAt}, which posts the resume to
 * the stream's context; so the inbox holds at most {@code capacity} items plus what the stream
 * delivers between its pause and its next check of it (Vert.x checks before each delivery, so
 * none in practice). At most one reader waits; the offer, the end, or nothing wakes it, and the
 * one that takes it off the slot is the one that wakes it (Waiter's one wake per park).
 *
 * @param <T> the item type
 */
final class Inbox<T> {
    private final int capacity;
    private final int resumeAt;
    private final Runnable pause;
    private final Runnable resume;
    private final ArrayDeque<T> items;
    private boolean paused;
    private boolean ended;
    private Waiter reader;
    private int highWater;
    private long pauses;

    /**
     * @param capacity items held before the stream is paused, at least 1
     * @param pause    pauses the stream; run by the producer on its event loop
     * @param resume   resumes the stream; run by a reader, so it must hop to the stream's context
     */
    Inbox(int capacity, Runnable pause, Runnable resume) {
        if (capacity < 1) {
            throw new IllegalArgumentException("inbox capacity must be at least 1: " + capacity);
        }
        this.capacity = capacity;
        this.resumeAt = capacity / 2;
        this.pause = pause;
        this.resume = resume;
        this.items = new ArrayDeque<>(Math.min(capacity, 1024));
    }

    /** Producer (the stream's handler): adds one item; pauses the stream when the inbox is full. */
    void offer(T item) {
        Waiter w;
        boolean doPause = false;
        synchronized (this) {
            items.add(item);
            if (items.size() > highWater) {
                highWater = items.size();
            }
            if (!paused && items.size() >= capacity) {
                paused = true;
                pauses++;
                doPause = true;
            }
            w = reader;
            reader = null;
        }
        if (doPause) {
            pause.run();
        }
        if (w != null) {
            w.wake();
        }
    }

    /** Producer: nothing more comes; the reader gets what is held, then null. Idempotent. */
    void end() {
        Waiter w;
        synchronized (this) {
            ended = true;
            w = reader;
            reader = null;
        }
        if (w != null) {
            w.wake();
        }
    }

    /**
     * The reader: the next item, parking while there is none; null once the inbox ended and
     * every item was taken.
     *
     * @throws IllegalStateException when another thread is waiting in take already
     */
    T take(String reason) {
        while (true) {
            Waiter w = null;
            T item;
            boolean doResume = false;
            synchronized (this) {
                item = items.poll();
                if (item != null) {
                    if (paused && items.size() <= resumeAt) {
                        paused = false;
                        doResume = true;
                    }
                } else if (ended) {
                    return null;
                } else {
                    if (reader != null) {
                        throw new IllegalStateException("two threads read one stream at once (" + reason + ")");
                    }
                    w = Waiter.current();
                    reader = w;
                }
            }
            if (item != null) {
                if (doResume) {
                    resume.run();
                }
                return item;
            }
            Parking.park(w, reason);
        }
    }

    /** Items held now. */
    synchronized int size() {
        return items.size();
    }

    /** The most items held at once so far. */
    synchronized int highWater() {
        return highWater;
    }

    /** How many times the stream was paused because the inbox was full. */
    synchronized long pauses() {
        return pauses;
    }

    /** True once {@link #end} was called. */
    synchronized boolean ended() {
        return ended;
    }
}
