package io.gmp4j.bench.remote;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The peer node of a remote benchmark, in a JVM of its own that {@link PeerProcess} starts:
 * {@code RemotePeer <impl> [impl args]}. Serves "ponger" and "receiver", prints
 * {@code @peer-ready <info>} on stdout (gmp4j: its node id; Pekko: its Artery port), and leaves
 * cleanly when its stdin closes. Exits 1 on any failure.
 */
public final class RemotePeer {
    static final String READY_PREFIX = "@peer-ready ";

    /** What a peer serves: its ready info and what shuts it down. */
    record Served(String info, AutoCloseable closer) {
    }

    private RemotePeer() {
    }

    public static void main(String[] args) {
        if (args.length < 1) {
            System.err.println("usage: RemotePeer <gmp4j|pekko> [args...]");
            System.exit(2);
        }
        try {
            List<String> rest = List.of(args).subList(1, args.length);
            Served s = switch (args[0]) {
                case "gmp4j" -> Gmp4jRemote.servePeer(rest);
                case "pekko" -> PekkoRemote.servePeer(rest);
                default -> throw new IllegalArgumentException("unknown impl '" + args[0] + "' (gmp4j, pekko)");
            };
            System.out.println(READY_PREFIX + s.info());
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            while (in.readLine() != null) {
                // the driver closes stdin to stop us
            }
            s.closer().close();
        } catch (Throwable t) {
            System.err.println("RemotePeer " + String.join(" ", args) + " FAILED: " + t);
            t.printStackTrace();
            System.err.flush();
            System.exit(1);
        }
        System.exit(0);
    }
}
