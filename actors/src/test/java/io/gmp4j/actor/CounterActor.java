package io.gmp4j.actor;

/**
 * The counter of {@link Behavior}'s class Javadoc, written as there so that the example
 * compiles: {@link Inc} adds one, {@link Get} is answered with the count. {@code
 * JavadocExamplesTest} runs the example with it; {@code AskTest} asks it.
 */
final class CounterActor {
    private CounterActor() {
    }

    // Behavior's class example
    sealed interface Msg permits Inc, Get {
    }

    /** Adds one to the count. */
    record Inc() implements Msg {
    }

    /** Asks for the count, answered to {@code replyTo}. */
    record Get(ActorRef<Integer> replyTo) implements Msg {
    }

    /** A counter at {@code n}. */
    static Behavior<Msg> counter(int n) {
        return (ctx, msg) -> switch (msg) {
            case Inc i -> counter(n + 1);
            case Get g -> {
                g.replyTo().tell(n);
                yield Behavior.same();
            }
        };
    }
}
