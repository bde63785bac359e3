package agenttest;

import io.gmp4j.Go;
import io.gmp4j.GoRuntime;
import io.gmp4j.runtime.LoopPreempt;

/**
 * A child JVM: at procs 1 the main goroutine starts a goroutine that sets {@link #flag} once
 * the main goroutine is {@link #spinning}, then spins in a counting loop until the flag is set.
 * The started goroutine waits in the run queue behind the spinner: it runs only if the spinner
 * gives up the P. Prints
 * {@code done} and exits 0 when it did; prints {@code starved} and exits 4 when the flag is
 * still unset after the watchdog's seconds (the first argument).
 */
public final class HogChild {
    static volatile boolean flag;
    static volatile boolean spinning;

    private HogChild() {
    }

    public static void main(String[] argv) {
        String[] args = System.getProperty("agenttest.args", "").split(",");
        long watchdogSeconds = Long.parseLong(args[0]);
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(watchdogSeconds * 1000);
            } catch (InterruptedException e) {
                return;
            }
            System.out.println("starved: the waiting goroutine did not run in " + watchdogSeconds + " s");
            System.out.flush();
            Runtime.getRuntime().halt(4);
        }, "watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        GoRuntime rt = GoRuntime.builder().maxProcs(1).build();
        long[] spins = new long[1];
        rt.main(() -> {
            Go.go(() -> {
                while (!spinning) {
                    Go.gosched(); // ran before the spinner started (preempted at go): let it start
                }
                flag = true;
            });
            spinning = true;
            long n = 0;
            while (!flag) {
                n++;
            }
            spins[0] = n;
        });
        System.out.println("done spins>0=" + (spins[0] > 0) + " loopYields>=1=" + (LoopPreempt.loopYields() >= 1));
        System.exit(0);
    }
}
