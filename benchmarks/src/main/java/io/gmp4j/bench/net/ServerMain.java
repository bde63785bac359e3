package io.gmp4j.bench.net;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * A benchmark server in its own process: {@code ServerMain <echo|chat> <impl> <procs>}, or
 * {@code ServerMain proxy <impl> <procs> <upstream-port>} for a proxy forwarding to
 * 127.0.0.1:upstream-port. It
 * prints {@value #LISTENING_PREFIX}{@code <port>} on stdout once it listens on 127.0.0.1,
 * serves until its standard input ends (the runner closes it), then stops and exits 0.
 * Exits 1 when it cannot start.
 */
public final class ServerMain {
    /** The line that tells the runner the port. */
    public static final String LISTENING_PREFIX = "@listening port=";

    private ServerMain() {
    }

    /** Starts the server the arguments name, serves until stdin ends, exits. */
    public static void main(String[] args) {
        boolean proxy = args.length > 0 && args[0].equals("proxy");
        if (args.length != (proxy ? 4 : 3)) {
            System.err.println("usage: ServerMain <echo|chat> <impl> <procs> | ServerMain proxy <impl> <procs> <upstream-port>");
            System.exit(2);
        }
        BenchServer server;
        try {
            int procs = Integer.parseInt(args[2]);
            server = proxy
                    ? BenchServer.startProxy(args[1], procs, new InetSocketAddress("127.0.0.1", Integer.parseInt(args[3])))
                    : BenchServer.start(args[0], args[1], procs);
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
