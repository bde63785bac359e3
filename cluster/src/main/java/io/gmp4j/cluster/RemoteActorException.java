package io.gmp4j.cluster;

/**
 * The reason of a {@code Terminated} or {@code ExitSignal} for a remote actor that failed: the
 * class name and message of the exception it died of on its node. The exception itself never
 * crosses the wire (no remote class is instantiated here).
 *
 * <pre>{@code
 * if (t.reason() instanceof RemoteActorException e) {
 *     System.out.println(e.remoteClassName() + ": " + e.getMessage());
 * }
 * }</pre>
 */
public final class RemoteActorException extends RuntimeException {
    private final String remoteClassName;

    /**
     * An exception of class {@code remoteClassName} with {@code message} on another node.
     *
     * <pre>{@code
     * new RemoteActorException("java.lang.IllegalStateException", "boom");
     * }</pre>
     */
    public RemoteActorException(String remoteClassName, String message) {
        super(message, null, false, false);
        this.remoteClassName = remoteClassName;
    }

    /** The name of the remote exception's class. */
    public String remoteClassName() {
        return remoteClassName;
    }

    @Override
    public String toString() {
        String m = getMessage();
        return "RemoteActorException[" + remoteClassName + (m == null ? "" : ": " + m) + "]";
    }
}
