package io.gmp4j.runtime.spi;

import java.util.Arrays;

/**
 * A list of runnable tasks moved as one unit: Go's {@code gList}. It is the one batch type of
 * the netpoll seam: the goroutines a poll turn readies ({@link NetpollHost#beginTurn}), and
 * the list a {@link Netpoll#netpoll} call returns. Not thread-safe: one owner at a time.
 */
public final class TaskBatch {
    private Runnable[] items = new Runnable[16];
    private int size;

    /** Appends a task. */
    public void add(Runnable r) {
        if (size == items.length) {
            items = Arrays.copyOf(items, size * 2);
        }
        items[size++] = r;
    }

    /** Number of tasks held. */
    public int size() {
        return size;
    }

    /** True when no task is held. */
    public boolean isEmpty() {
        return size == 0;
    }

    /** Removes and returns the last task, or null. */
    public Runnable pop() {
        if (size == 0) {
            return null;
        }
        Runnable r = items[--size];
        items[size] = null;
        return r;
    }

    /**
     * The backing array, tasks at {@code [0, size())} oldest first, for the scheduler's
     * {@code injectglist} to copy from in one move; valid until the next {@link #add} or
     * {@link #clear}.
     */
    public Runnable[] array() {
        return items;
    }

    /** Empties the batch. */
    public void clear() {
        Arrays.fill(items, 0, size, null);
        size = 0;
    }
}
