package io.gmp4j.runtime;

/**
 * What {@link G#park} and {@link G#ready} tell the observers of goroutine waits: the
 * scheduling-latency sample ({@link SchedLatency}) and, in leak-profile mode, the wait reason
 * kept beside the registry's weak entry ({@link LeakProfile}). One call at each point, so that
 * G's park protocol stays readable; each costs a field load and a branch when nothing samples.
 */
final class ParkHooks {
    private ParkHooks() {
    }

    /** {@code g} is about to publish WAITING (its own thread). */
    static void parking(G g, String reason) {
        SchedLatency.parking(g);
        LeakProfile.Ref r = g.leakRef;
        if (r != null) {
            r.parking(reason, g.waitSince);
        }
    }

    /** {@code g}'s park returns (its own thread), whether it waited or found a permit. */
    static void resumed(G g) {
        SchedLatency.resumed(g);
        LeakProfile.Ref r = g.leakRef;
        if (r != null) {
            r.resumed();
        }
    }

    /** A waker found {@code g} WAITING and is about to ready it. */
    static void readying(G g) {
        SchedLatency.readying(g);
    }
}
