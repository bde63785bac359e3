package agenttest;

import io.gmp4j.Go;
import io.gmp4j.GoRuntime;

/**
 * A child JVM: {@link Loops#all} on one goroutine at procs 1 while another goroutine keeps
 * asking for the P (it sleeps 1 ms and counts), so that, with the agent, the loops are
 * preempted in the middle; prints the results line, which must not depend on the agent.
 */
public final class LoopsChild {
    static volatile boolean finished;

    private LoopsChild() {
    }

    public static void main(String[] argv) {
        String[] args = System.getProperty("agenttest.args", "").split(",");
        int scale = Integer.parseInt(args[0]);
        GoRuntime rt = GoRuntime.builder().maxProcs(1).build();
        String[] result = new String[3];
        rt.main(() -> {
            Go.go(() -> {
                while (!finished) {
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            result[0] = Loops.all(scale);
            result[1] = Loops.all(scale + 1);
            result[2] = Loops.all(scale);
            finished = true;
        });
        if (!result[0].equals(result[2])) {
            System.out.println("the same input gave two results");
            System.exit(1);
        }
        System.out.println("result " + result[0] + " | " + result[1]);
        System.out.println("loopYields>=1=" + (io.gmp4j.runtime.LoopPreempt.loopYields() >= 1)
                + " instrumented=" + (System.getProperty("agenttest.instrumented") != null));
        System.exit(0);
    }
}
