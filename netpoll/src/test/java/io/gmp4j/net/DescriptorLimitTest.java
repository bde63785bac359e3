package io.gmp4j.net;

import io.gmp4j.GoRuntime;
import io.gmp4j.TestSupport;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A process out of descriptors, in a child JVM started with a limit of {@link #LIMIT}
 * ({@code prlimit --nofile}): dials fail with Go's {@code socket: too many open files}, accept
 * fails with {@code accept4: too many open files} and the listener stays open, and after
 * {@link #FREED} client connections close, exactly that many accepts succeed, each connection
 * with its direct writer on its one descriptor, before accept fails again; closing more lets
 * accept go on. A class file is opened when first loaded, and none can be once descriptors
 * are out, so the child loads every class of its directory class path first, and runs the
 * scenario twice (the first round warms what else opens lazily); the second is checked.
 */
class DescriptorLimitTest {
    static final int LIMIT = 256;
    static final int FREED = 10;

    @Test
    void acceptAndDialFailTemporarilyAndRecover() throws Exception {
        TestSupport.ChildRun run = TestSupport.runChildJvm(
                List.of("prlimit", "--nofile=" + LIMIT + ":" + LIMIT, "--"),
                List.of("--add-opens", "java.base/java.lang=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
                        "--sun-misc-unsafe-memory-access=allow", "-Djdk.trackAllThreads=false"),
                Child.class);
        String out = run.output();
        assertEquals(0, run.exit(), out);
        Matcher m = Pattern.compile("(?s).*round 2 port=(\\d+)\n(.*)").matcher(out);
        assertTrue(m.matches(), out);
        String port = m.group(1);
        String addr = "127.0.0.1:" + port;
        String round = m.group(2);
        String expected = "dialled=\\d+\n"
                + "dial: java.net.SocketException: dial tcp " + addr + ": socket: too many open files temporary=true cause=true\n"
                + "accept: java.net.SocketException: accept tcp " + addr + ": accept4: too many open files temporary=true\n"
                + "freed=" + FREED + " accepted=" + FREED + " writers=" + FREED + " echoed=" + FREED + "\n"
                + "again: java.net.SocketException: accept tcp " + addr + ": accept4: too many open files temporary=true\n"
                + "freed=2 accepted=2\n"
                + "closed: io.gmp4j.net.NetClosedException: accept tcp " + addr + ": use of closed network connection temporary=false\n";
        assertTrue(round.matches(expected), () -> "round 2:\n" + round + "\nexpected:\n" + expected + "\nall:\n" + out);
        Matcher d = Pattern.compile("dialled=(\\d+)").matcher(round);
        assertTrue(d.find());
        int dialled = Integer.parseInt(d.group(1));
        assertTrue(dialled > LIMIT / 2, dialled + " dials under a limit of " + LIMIT + ": a descriptor each");
    }

    /** The child: two rounds of the scenario, printing what each step met. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            loadClassDirectories();
            try (GoRuntime rt = GoRuntime.builder().name("emfile").maxProcs(2).build()) {
                for (int r = 1; r <= 2; r++) {
                    int round = r;
                    TestSupport.runInGoroutine(rt, () -> scenario(round));
                }
            }
            System.out.flush();
            System.exit(0);
        }

        private static void scenario(int round) throws IOException {
            int socketsAtStart = openSockets();
            Listener l = Net.listen("127.0.0.1:0");
            System.out.println("round " + round + " port=" + l.address().getPort());
            List<Conn> clients = new ArrayList<>();
            IOException dialFailure = null;
            while (dialFailure == null) {
                try {
                    clients.add(Net.dial(l.address()));
                } catch (IOException e) {
                    dialFailure = e;
                }
            }
            System.out.println("dialled=" + clients.size());
            System.out.println("dial: " + describe(dialFailure) + " cause=" + (dialFailure.getCause() != null));
            try {
                l.accept();
                System.out.println("accept: succeeded with no descriptor free");
            } catch (IOException e) {
                System.out.println("accept: " + describe(e));
            }
            // The newest clients close; the backlog holds the oldest first, whose clients stay.
            closeNewest(clients, FREED);
            List<Conn> accepted = new ArrayList<>();
            IOException again = acceptAll(l, accepted);
            int writers = 0;
            int echoed = 0;
            for (int i = 0; i < accepted.size(); i++) {
                Conn s = accepted.get(i);
                writers += s.writer.directWriter() != null ? 1 : 0;
                s.write(new byte[]{(byte) i});
                Conn peer = clients.stream().filter(c -> c.localAddress().equals(s.remoteAddress())).findFirst()
                        .orElseThrow();
                byte[] one = new byte[1];
                if (peer.read(one, 0, 1) == 1 && one[0] == (byte) i && s.writer.directWrites == 1) {
                    echoed++;
                }
            }
            System.out.println("freed=" + FREED + " accepted=" + accepted.size() + " writers=" + writers
                    + " echoed=" + echoed);
            System.out.println("again: " + describe(again));
            closeNewest(clients, 2);
            List<Conn> more = new ArrayList<>();
            acceptAll(l, more);
            System.out.println("freed=2 accepted=" + more.size());
            l.close();
            try {
                l.accept();
            } catch (IOException e) {
                System.out.println("closed: " + describe(e));
            }
            for (Conn c : clients) {
                c.close();
            }
            for (Conn c : accepted) {
                c.close();
            }
            for (Conn c : more) {
                c.close();
            }
            // A connection's descriptor is closed by its loop after close() returns (the close
            // waits for a goroutine's write in flight): the next round starts only once every
            // socket of this one is gone, or it would begin with fewer free than it counts on.
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
            while (openSockets() > socketsAtStart) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("round " + round + ": " + openSockets()
                            + " sockets still open 20 s after every close, against " + socketsAtStart + " at its start");
                }
                io.gmp4j.Go.gosched();
            }
        }

        /** The process's open socket descriptors ({@code /proc/self/fd} entries linked to {@code socket:}). */
        private static int openSockets() {
            try (var fds = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/fd"))) {
                return (int) fds.filter(f -> {
                    try {
                        return java.nio.file.Files.readSymbolicLink(f).toString().startsWith("socket:");
                    } catch (IOException e) {
                        return false; // closed while listed (the directory's own descriptor)
                    }
                }).count();
            } catch (IOException e) {
                return Integer.MAX_VALUE; // no descriptor free even to list them: the closes are still on their way
            }
        }

        /** Loads (without initialising) every class under the class path's directories. */
        private static void loadClassDirectories() throws Exception {
            for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
                java.nio.file.Path root = java.nio.file.Path.of(entry);
                if (!java.nio.file.Files.isDirectory(root)) {
                    continue;
                }
                try (var files = java.nio.file.Files.walk(root)) {
                    for (java.nio.file.Path f : (Iterable<java.nio.file.Path>) files::iterator) {
                        String rel = root.relativize(f).toString();
                        if (rel.endsWith(".class") && !rel.equals("module-info.class")) {
                            String name = rel.substring(0, rel.length() - ".class".length()).replace(java.io.File.separatorChar, '.');
                            Class.forName(name, false, Child.class.getClassLoader());
                        }
                    }
                }
            }
        }

        /** Accepts into {@code into} until accept fails; returns the failure. */
        private static IOException acceptAll(Listener l, List<Conn> into) {
            while (true) {
                try {
                    into.add(l.accept());
                } catch (IOException e) {
                    return e;
                }
            }
        }

        /** Closes the {@code n} newest clients and waits until their descriptors are closed. */
        private static void closeNewest(List<Conn> clients, int n) {
            for (int i = 0; i < n; i++) {
                Conn c = clients.remove(clients.size() - 1);
                c.close();
                Net.await(c.poller, c.ch.closeFuture(), "IO wait (close)");
            }
        }

        private static String describe(IOException e) {
            return e.getClass().getName() + ": " + e.getMessage() + " temporary=" + Net.isTemporary(e);
        }
    }
}
