package io.gmp4j.actor;

/**
 * The termination notice of one watch, as it waits in the watcher's mailbox: the
 * {@link Terminated} (or what {@code watchWith} mapped it to) and the actor watched. A watch
 * lasts until the watcher takes its notice ({@link ActorCell#take} ends it then and hands out
 * {@link #msg}), so a watch of the same actor before that is the same watch and gets no
 * second notice; a notice whose watch an {@code unwatch} ended first is dropped when taken.
 * Like every system message it takes no place of a bounded mailbox.
 */
final class WatchNotice {
    /** The actor watched (a cell or a remote ref): the key of the watch in the watcher's {@code watching} map. */
    final ActorRef<?> target;
    /** Written once, before the notice is enqueued: the mailbox's offer publishes it to the consumer. */
    Object msg;

    WatchNotice(ActorRef<?> target) {
        this.target = target;
    }
}
