package io.gmp4j.agent;

import agenttest.HogChild;
import agenttest.LoopsChild;
import agenttest.PinnedChild;
import io.gmp4j.TestSupport.ChildRun;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The agent in real child JVMs at procs 1, with sysmon's handoff off
 * ({@code -Dgmp4j.preempthandoff=false}) so that only the agent can take the P from a spinner.
 */
class LoopPreemptTest {

    @Test
    void aSpinnerCannotStarveAGoroutineInTheRunQueue() throws Exception {
        ChildRun run = AgentJvm.run(AgentJvm.PREFIX, false, HogChild.class, "50");
        assertEquals(0, run.exit(), run.output());
        assertTrue(run.output().contains("done spins>0=true loopYields>=1=true"), run.output());
    }

    /** The same child without the agent: the spinner keeps the only P, the other never runs. */
    @Test
    void withoutTheAgentOrHandoffTheSpinnerStarvesIt() throws Exception {
        ChildRun run = AgentJvm.run(null, false, HogChild.class, "3");
        assertEquals(4, run.exit(), run.output());
        assertTrue(run.output().contains("starved"), run.output());
    }

    /** Today's rescue without the agent: sysmon hands the spinner's P to another M. */
    @Test
    void withoutTheAgentSysmonsHandoffRunsIt() throws Exception {
        ChildRun run = AgentJvm.run(null, true, HogChild.class, "50");
        assertEquals(0, run.exit(), run.output());
        assertTrue(run.output().contains("done spins>0=true loopYields>=1=false"), run.output());
    }

    @Test
    void aGoroutineInANativeFrameIsNotYieldedAndIsPreemptedAfterIt() throws Exception {
        ChildRun run = AgentJvm.run(AgentJvm.PREFIX, false, PinnedChild.class, "native");
        assertEquals(0, run.exit(), run.output());
        assertTrue(run.output().contains("ok pinnedYields>=1=true loopYields>=1=true"), run.output());
    }

    @Test
    void aGoroutinePreemptedInsideSynchronizedKeepsItsMonitor() throws Exception {
        ChildRun run = AgentJvm.run(AgentJvm.PREFIX, false, PinnedChild.class, "synchronized");
        assertEquals(0, run.exit(), run.output());
        assertTrue(run.output().contains("ok pinnedYields>=1=false loopYields>=1=true"), run.output());
    }

    @Test
    void instrumentationLeavesTheResultsIdentical() throws Exception {
        ChildRun plain = AgentJvm.run(null, true, LoopsChild.class, "400");
        ChildRun agent = AgentJvm.run(AgentJvm.PREFIX, false, LoopsChild.class, "400");
        assertEquals(0, plain.exit(), plain.output());
        assertEquals(0, agent.exit(), agent.output());
        assertEquals(resultLine(plain.output()), resultLine(agent.output()));
        assertTrue(plain.output().contains("instrumented=false"), plain.output());
        // preempted in the middle of the loops, and the results did not change
        assertTrue(agent.output().contains("loopYields>=1=true instrumented=true"), agent.output());
    }

    private static String resultLine(String output) {
        return output.lines().filter(l -> l.startsWith("result ")).findFirst()
                .orElseThrow(() -> new AssertionError("no result line in:\n" + output));
    }
}
