package io.gmp4j.runtime;

/** What the run-queue jcstress tests share. */
final class RunQueueFixtures {
    /** For queues of capacity 4 holding at most 2 tasks: an overflow is a bug in the test. */
    static final RunQueue.Overflow NO_OVERFLOW = (batch, n) -> {
        throw new AssertionError("no overflow expected");
    };

    private RunQueueFixtures() {
    }

    /** Takes every task left in {@code queues} (runnext included) and returns how many. */
    static int drain(RunQueue.Got got, RunQueue... queues) {
        int left = 0;
        for (RunQueue q : queues) {
            while (q.get(got, true) != null) {
                left++;
            }
        }
        return left;
    }
}
