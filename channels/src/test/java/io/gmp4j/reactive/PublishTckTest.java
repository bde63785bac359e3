package io.gmp4j.reactive;

import org.reactivestreams.Publisher;
import org.reactivestreams.tck.PublisherVerification;
import org.reactivestreams.tck.TestEnvironment;

/**
 * The Reactive Streams TCK (run on the JUnit Platform by the TestNG engine) against
 * {@link Reactive#publish}: a cold publisher whose producer runs in a goroutine per subscriber.
 */
public class PublishTckTest extends PublisherVerification<Long> {
    public PublishTckTest() {
        super(new TestEnvironment(TckTimeouts.DEFAULT_MS, TckTimeouts.NO_SIGNALS_MS), TckTimeouts.GC_MS);
    }

    @Override
    public Publisher<Long> createPublisher(long elements) {
        return Reactive.publish(out -> {
            for (long i = 0; i < elements; i++) {
                out.send(i);
            }
        });
    }

    @Override
    public Publisher<Long> createFailedPublisher() {
        return Reactive.publish(out -> {
            throw new IllegalStateException("the producer failed");
        });
    }
}
