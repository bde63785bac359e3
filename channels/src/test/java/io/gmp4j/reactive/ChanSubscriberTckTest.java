package io.gmp4j.reactive;

import io.gmp4j.GoRuntime;
import org.reactivestreams.Subscriber;
import org.reactivestreams.tck.SubscriberBlackboxVerification;
import org.reactivestreams.tck.TestEnvironment;

/**
 * The Reactive Streams TCK (subscriber rules, black-box) against {@link ChanSubscriber}, whose
 * channel a goroutine drains as a user would.
 */
public class ChanSubscriberTckTest extends SubscriberBlackboxVerification<Integer> {
    public ChanSubscriberTckTest() {
        super(new TestEnvironment(TckTimeouts.DEFAULT_MS, TckTimeouts.NO_SIGNALS_MS));
    }

    @Override
    public Subscriber<Integer> createSubscriber() {
        ChanSubscriber<Integer> s = new ChanSubscriber<>(4);
        GoRuntime.defaultRuntime().go(() -> {
            for (Integer ignored : s.c()) {
                // drain, as a consumer would
            }
        });
        return s;
    }

    @Override
    public Integer createElement(int element) {
        return element;
    }
}
