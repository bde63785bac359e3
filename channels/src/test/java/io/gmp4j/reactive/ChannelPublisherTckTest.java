package io.gmp4j.reactive;

import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Chan;
import org.reactivestreams.Publisher;
import org.reactivestreams.tck.PublisherVerification;
import org.reactivestreams.tck.TestEnvironment;

/**
 * The Reactive Streams TCK against {@link Reactive#publisher}: a channel, filled by a goroutine
 * and then closed, as a shared publisher. A channel cannot fail, so there is no failed
 * publisher ({@code createFailedPublisher} returns null, the TCK's way to say so).
 */
public class ChannelPublisherTckTest extends PublisherVerification<Long> {
    public ChannelPublisherTckTest() {
        super(new TestEnvironment(TckTimeouts.DEFAULT_MS, TckTimeouts.NO_SIGNALS_MS), TckTimeouts.GC_MS);
    }

    @Override
    public Publisher<Long> createPublisher(long elements) {
        Chan<Long> ch = new Chan<>(16);
        GoRuntime.defaultRuntime().go(() -> {
            for (long i = 0; i < elements; i++) {
                ch.send(i);
            }
            ch.close();
        });
        return Reactive.publisher(ch);
    }

    @Override
    public Publisher<Long> createFailedPublisher() {
        return null;
    }
}
