package io.gmp4j.actor;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The {@link ProcessContext} (and so {@link ActorContext}) handed to one actor's own code: spawn
 * children, watch and link (local and remote actors alike), trap exits, receive (process actors).
 * A view of its {@link ActorCell}; use it only from that actor's code.
 *
 * @param <T> the actor's message type
 */
final class CellContext<T> implements ProcessContext<T> {
    private final ActorCell<T> cell;

    CellContext(ActorCell<T> cell) {
        this.cell = cell;
    }

    @Override
    public ActorRef<T> self() {
        return cell;
    }

    @Override
    public ActorSystem system() {
        return cell.system;
    }

    @Override
    public <U> ActorRef<U> spawn(Behavior<U> behavior, Props props) {
        return cell.system.spawnCell(cell, new BehaviorCell<>(cell.system, cell, props, behavior));
    }

    @Override
    public <U> ActorRef<U> spawnProcess(ProcessBody<U> body, Props props) {
        return cell.system.spawnCell(cell, new ProcessCell<>(cell.system, cell, props, body));
    }

    @Override
    public void watch(ActorRef<?> other) {
        watch0(other, t -> t);
    }

    @Override
    public void watchWith(ActorRef<?> other, Function<Terminated, ? extends T> toMessage) {
        watch0(other, toMessage);
    }

    private void watch0(ActorRef<?> other, Function<Terminated, ?> toMessage) {
        ActorRef<?> c = other instanceof RemoteActorRef<?> r ? r : ActorCell.cellOf(other, "watch");
        WatchNotice n = new WatchNotice(c);
        if (!cell.startWatch(n)) {
            return; // already watching it, its notice not taken yet: still one notice
        }
        ActorCell.watch(c, cell, t -> {
            n.msg = Objects.requireNonNull(toMessage.apply(t), "watchWith: the function returned null");
            cell.tellSystem(n);
        });
    }

    @Override
    public void unwatch(ActorRef<?> other) {
        if (other instanceof RemoteActorRef<?> r) {
            r.unwatchRemote(cell);
            cell.endWatch(r);
        } else if (other instanceof ActorCell<?> || other instanceof ChildRef<?>) {
            ActorCell<?> c = ActorCell.cellOf(other, "unwatch");
            c.removeWatcher(cell);
            cell.endWatch(c);
        }
    }

    @Override
    public void link(ActorRef<?> other) {
        if (other instanceof RemoteActorRef<?> r) {
            cell.linkRemote(r);
        } else {
            cell.link(ActorCell.cellOf(other, "link to"));
        }
    }

    @Override
    public void unlink(ActorRef<?> other) {
        if (other instanceof RemoteActorRef<?> r) {
            cell.unlinkRemote(r);
        } else {
            cell.unlink(ActorCell.cellOf(other, "unlink from"));
        }
    }

    @Override
    public void trapExits(boolean on) {
        cell.trapExits = on;
    }

    @Override
    public Supervisor spawnSupervisor(SupervisorSpec spec, Props props) {
        return Supervisor.spawn(cell.system, cell, spec, props);
    }

    @Override
    public T receive() {
        return cell.receive0(null, false, 0);
    }

    @Override
    public T receive(Duration timeout) {
        return cell.receive0(null, true, System.nanoTime() + timeout.toNanos());
    }

    @Override
    public T receive(Predicate<? super T> filter) {
        return cell.receive0(Objects.requireNonNull(filter), false, 0);
    }

    @Override
    public T receive(Predicate<? super T> filter, Duration timeout) {
        return cell.receive0(Objects.requireNonNull(filter), true, System.nanoTime() + timeout.toNanos());
    }

    @Override
    public String toString() {
        return "ActorContext[" + cell.name + "]";
    }
}
