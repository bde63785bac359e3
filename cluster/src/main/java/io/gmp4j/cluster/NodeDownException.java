package io.gmp4j.cluster;

/**
 * The reason of a {@code Terminated} or {@code ExitSignal} when the actor's node left the
 * cluster or died (Erlang's {@code noconnection}, Pekko's address-terminated): the actor may
 * still run there, but this node can no longer reach it. Its message says "node down".
 *
 * <pre>{@code
 * if (t.reason() instanceof NodeDownException down) {
 *     System.out.println("lost " + t.ref().name() + ": " + down.getMessage());
 * }
 * }</pre>
 */
public final class NodeDownException extends RuntimeException {
    private final String nodeId;

    /**
     * For the node {@code nodeId}.
     *
     * <pre>{@code
     * new NodeDownException(nodeId);
     * }</pre>
     */
    public NodeDownException(String nodeId) {
        super("node down: " + nodeId + " left the cluster or stopped answering", null, false, false);
        this.nodeId = nodeId;
    }

    /** The id of the node that is gone. */
    public String nodeId() {
        return nodeId;
    }
}
