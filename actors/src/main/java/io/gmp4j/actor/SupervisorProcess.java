package io.gmp4j.actor;

import java.util.ArrayDeque;

/**
 * The body of a {@link Supervisor}'s goroutine: the strategy, restart types and intensity.
 * Everything here runs on that one goroutine (after {@link #startAll}, which runs in
 * {@code spawnSupervisor} before the goroutine starts), so the slots need no lock; only
 * {@link ChildRef#current} is read by others.
 */
final class SupervisorProcess implements ProcessBody<Object> {
    /** One child: its spec, its stable reference, whether an incarnation is running. */
    static final class Slot<T> {
        final ChildSpec<T> spec;
        final ChildRef<T> ref;
        /** An incarnation was started and its exit not yet taken. */
        boolean running;
        /** A temporary child that stopped: gone from the supervisor. */
        boolean removed;

        Slot(ChildSpec<T> spec) {
            this.spec = spec;
            this.ref = new ChildRef<>(spec.id());
        }
    }

    /** The system message a child's death sends its supervisor: one per incarnation. */
    record ChildExit(Slot<?> slot, ActorCell<?> cell, Throwable reason) {
    }

    private final ActorSystem system;
    private final SupervisorSpec spec;
    final Slot<?>[] slots;
    /** When the restarts within the intensity's period happened (nanoTime), oldest first. */
    private final ArrayDeque<Long> restarts = new ArrayDeque<>();
    /** Set before the goroutine starts. */
    ProcessCell<Object> cell;
    /** Set when {@link #startAll} failed: the goroutine only stops the children started. */
    boolean startFailed;

    SupervisorProcess(ActorSystem system, SupervisorSpec spec) {
        this.system = system;
        this.spec = spec;
        this.slots = new Slot<?>[spec.children().size()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = new Slot<>(spec.children().get(i));
        }
    }

    /** Starts every child in order; throws (leaving the ones started running) if one cannot. */
    void startAll() {
        for (Slot<?> s : slots) {
            start(s);
        }
    }

    @Override
    public void run(ProcessContext<Object> self) {
        try {
            if (startFailed) {
                return;
            }
            while (true) {
                Object m = self.receive(); // a stop request ends the loop here (finally below)
                if (m instanceof ChildExit e) {
                    childExited(e);
                } else {
                    system.deadLetter(m, cell); // a supervisor handles no message of its own
                }
            }
        } finally {
            stopChildren(0);
        }
    }

    /** One child's incarnation has finished: apply its restart type and the strategy. */
    private void childExited(ChildExit e) {
        Slot<?> s = e.slot();
        if (!s.running || s.ref.current() != e.cell()) {
            throw new IllegalStateException("childExited: exit of " + e.cell() + " is not of the running incarnation of '"
                    + s.spec.id() + "'");
        }
        s.running = false;
        switch (s.spec.restart()) {
            case TEMPORARY -> {
                s.removed = true;
                return;
            }
            case TRANSIENT -> {
                if (e.reason() == null) {
                    return; // a normal stop ends a transient child for good
                }
            }
            case PERMANENT -> {
            }
        }
        countRestart(s, e.reason());
        switch (spec.strategy()) {
            case ONE_FOR_ONE -> restart(s);
            case ONE_FOR_ALL -> restartFrom(0);
            case REST_FOR_ONE -> restartFrom(indexOf(s));
        }
    }

    /** Stops the children from {@code from} on (reverse start order), then starts them again in order. */
    private void restartFrom(int from) {
        stopChildren(from);
        for (int i = from; i < slots.length; i++) {
            if (!slots[i].removed) {
                restart(slots[i]);
            }
        }
    }

    /**
     * Stops every running child from {@code from} on, last started first, each waited for;
     * temporary ones are removed (OTP drops them rather than restart them).
     */
    private void stopChildren(int from) {
        for (int i = slots.length - 1; i >= from; i--) {
            Slot<?> s = slots[i];
            if (s.running) {
                ActorCell<?> c = s.ref.current();
                c.stop();
                cell.receiveIgnoringStop(m -> m instanceof ChildExit x && x.cell() == c);
                s.running = false;
            }
            if (s.spec.restart() == Restart.TEMPORARY) {
                s.removed = true;
            }
        }
    }

    /** Starts a new incarnation; one that cannot start counts as another restart, and is retried. */
    private void restart(Slot<?> s) {
        while (true) {
            try {
                start(s);
                return;
            } catch (RuntimeException failure) {
                countRestart(s, failure);
            }
        }
    }

    private <T> void start(Slot<T> s) {
        ActorCell<T> c = s.spec.start(system, cell);
        s.ref.setCurrent(c);
        s.running = true;
        // Told at once if it died already: one exit per incarnation either way.
        ActorCell.watch(c, this, t -> cell.tellSystem(new ChildExit(s, c, t.reason())));
    }

    /** Records a restart; throws if it is one more than the intensity allows. */
    private void countRestart(Slot<?> s, Throwable cause) {
        long now = System.nanoTime();
        long period = spec.period().toNanos();
        restarts.addLast(now);
        while (now - restarts.peekFirst() > period) {
            restarts.removeFirst();
        }
        if (restarts.size() > spec.maxRestarts()) {
            throw new RestartLimitExceededException(cell.name, spec.maxRestarts(), spec.period(), s.spec.id(), cause);
        }
    }

    private int indexOf(Slot<?> s) {
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] == s) {
                return i;
            }
        }
        throw new IllegalStateException("indexOf: not a slot of this supervisor: " + s.spec.id());
    }
}
