package io.gmp4j.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A JUnit 5 test whose body runs as the main goroutine of a fresh gmp4j runtime
 * ({@link GoTestExtension}). On a method it is also {@link Test @Test}; on a class it sets the
 * defaults of the class's tests (a method's own {@code @GoTest} wins).
 *
 * <pre>{@code
 * @GoTest(procs = 2, timeoutMillis = 5_000)
 * void pipeline() {
 *     Chan<Integer> ch = new Chan<>();
 *     Go.go(() -> { ch.send(42); ch.close(); });
 *     assertEquals(42, ch.recv());
 * }
 * }</pre>
 *
 * <p>The test fails, with a goroutine dump, when a goroutine it started is still alive at its
 * end (a leak), when the runtime reports a deadlock ("all goroutines are asleep"), when any
 * goroutine panics (an exception ends it), or when it runs past {@link #timeoutMillis} (the dump
 * says where each goroutine waits). Each runtime is seeded ({@code GoRuntime.Builder.seed}): a
 * failing test prints its seed, and {@link #seed} or {@code -Dgmp4j.test.seed=...} replays it
 * (an identical interleaving at {@code procs = 1}).
 */
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Test
@ExtendWith(GoTestExtension.class)
public @interface GoTest {
    /** {@link #seed}'s default: a fresh random seed per run (or {@code -Dgmp4j.test.seed}). */
    long RANDOM_SEED = Long.MIN_VALUE;

    /** GOMAXPROCS of the test's runtime; 0: the builder's default ({@code -Dgmp4j.maxprocs}, the CPUs). */
    int procs() default 0;

    /** The test fails, with a dump of every goroutine, when it runs longer (milliseconds). */
    long timeoutMillis() default 30_000;

    /** The seed of the runtime's random choices, to replay a failing test's schedule. */
    long seed() default RANDOM_SEED;

    /**
     * Also run the body in a synctest bubble ({@link SyncTest#run}): fake time from Go's
     * synctest epoch ({@link SyncTest#EPOCH}).
     */
    boolean bubble() default false;
}
