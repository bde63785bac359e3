package io.gmp4j.bench.net;

import java.io.IOException;

/**
 * A benchmark server in its own process: {@code ServerMain <echo|chat> <impl> <procs>}. It
 * prints {@value #LISTENING_PREFIX}{@code <port>} on stdout once it listens on 127.0.0.1,
 * serves until its standard input ends (the runner closes it), then stops and exits 0.
 * Exits 1 when it cannot start.
 */
public final class ServerMain {
    /** The line that tells the runner the port. */
    public static final String LISTENING_PREFIX = "@listening port=";

    private ServerMain() {
    }

    public static void main(String[] args) {
        if (args.length != 3) {
            System.err.println("usage: ServerMain <echo|chat> <impl> <procs>");
            System.exit(2);
        }
        BenchServer server;
        try {
            server = BenchServer.start(args[0], args[1], Integer.parseInt(args[2]));
        } catch (IOException | RuntimeException e) {
            System.err.println("ServerMain " + String.join(" ", args) + ": cannot start: " + e);
            System.exit(1);
            return;
        }
        System.err.println("ServerMain: " + args[1] + " " + args[0] + " server with procs=" + args[2]
                + " on " + server.address() + " (client transport " + NettyTransport.best().name() + ")");
        System.out.println(LISTENING_PREFIX + server.address().getPort());
        System.out.flush();
        try {
            while (System.in.read() >= 0) {
                // serve until the runner closes our stdin
            }
        } catch (IOException e) {
            // stdin broke: the runner is gone; stop as well
        }
        server.close();
        System.exit(0);
    }
}
