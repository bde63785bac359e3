package io.gmp4j.bench.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import org.HdrHistogram.Histogram;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The chat fan-out load: {@code clients} clients log into one room, the first {@code senders}
 * of them send as fast as they may (each at most {@code maxInFlight} of its own lines not yet
 * delivered back to itself, see {@link ChatConnection}) and every client counts and times
 * what it receives. Per measured window: lines delivered per second ({@code chat-fanout}),
 * the 99th-percentile delivery latency over all deliveries ({@code chat-p99}, ms), the
 * slowest receiver's and the median receiver's own p99 ({@code chat-p99-slowest},
 * {@code chat-p99-median}, ms) and, when the server's pid is known, the server's CPU time per
 * delivered line ({@code chat-fanout-cpu}, µs). At the end the senders stop, and every client
 * must have received every line of every sender, once, in order: deliveries = lines sent ×
 * clients.
 *
 * @param server      the chat server
 * @param clients     clients in the room (200 in the benchmark)
 * @param senders     how many of them send (10)
 * @param maxInFlight a sender's lines not yet back to itself (32)
 * @param loops       the client's event-loop threads
 * @param wsPath      null: the clients speak plain TCP; else the path of the server's WebSocket
 *                    ({@link WsLines}: one text frame per line), and the figures are named
 *                    {@code chat-ws-lines}, {@code chat-ws-p99}, {@code chat-ws-p99-slowest},
 *                    {@code chat-ws-p99-median} and {@code chat-ws-cpu}
 */
public record ChatLoad(InetSocketAddress server, int clients, int senders, int maxInFlight, int loops, String wsPath) {
    /** The text after the sequence number and timestamp: lines are about 80 bytes on the wire. */
    static final String FILLER = "the quick brown fox jumps over the lazy dog";
    private static final long STEP_TIMEOUT_S = 60;

    public ChatLoad {
        if (clients < 1 || senders < 1 || senders > clients || maxInFlight < 1 || loops < 1) {
            throw new IllegalArgumentException("need 1 <= senders <= clients, maxInFlight >= 1, loops >= 1; got "
                    + senders + ", " + clients + ", " + maxInFlight + ", " + loops);
        }
        if (wsPath != null && !wsPath.startsWith("/")) {
            throw new IllegalArgumentException("a WebSocket path starts with '/': '" + wsPath + "'");
        }
    }

    /** The load over plain TCP. */
    public ChatLoad(InetSocketAddress server, int clients, int senders, int maxInFlight, int loops) {
        this(server, clients, senders, maxInFlight, loops, null);
    }

    /** What a run measured and counted: lines sent (all senders) and lines received (all clients). */
    public record Outcome(List<Figure> figures, long linesSent, long deliveries) {
    }

    /** Runs the load for {@code plan}'s windows. */
    public Outcome run(WindowPlan plan) {
        FirstError errors = new FirstError();
        CountDownLatch ready = new CountDownLatch(clients);
        CountDownLatch primed = new CountDownLatch(senders);
        CountDownLatch drained = new CountDownLatch(senders);
        CountDownLatch delivered = new CountDownLatch(clients);
        byte[] filler = FILLER.getBytes(StandardCharsets.US_ASCII);
        List<ChatConnection> conns = new ArrayList<>();
        List<ChannelHandler> inits = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            ChatConnection c = new ChatConnection(i, senders, maxInFlight, filler, errors, ready, primed, drained,
                    delivered);
            conns.add(c);
            inits.add(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    if (wsPath == null) {
                        ch.pipeline().addLast(c); // it frames the lines itself
                    } else {
                        ch.pipeline().addLast(WsLines.pipeline(server, wsPath, c));
                    }
                }
            });
        }
        try (ClientConnections cc = new ClientConnections(loops)) {
            List<Channel> channels = cc.connect(server, inits, 256 * 1024);
            errors.await(ready, "every chat client logged in", STEP_TIMEOUT_S);
            List<ChatConnection> sending = conns.subList(0, senders);
            sending.forEach(ChatConnection::start);
            errors.await(primed, "every chat sender got its first line back", STEP_TIMEOUT_S);
            // Each window is summed up as it is harvested, and each receiver's interval histogram
            // is handed back to its recorder next time: the harvest allocates one histogram per
            // window, not one per receiver (whose garbage would pause the client).
            Histogram[] spare = new Histogram[clients];
            List<WindowPlan.Window<WindowLatency>> windows = plan.run(() -> {
                Histogram all = new Histogram(3);
                double[] receiverP99 = new double[clients];
                int n = 0;
                for (int i = 0; i < clients; i++) {
                    Histogram h = conns.get(i).latencies.getIntervalHistogram(spare[i]);
                    spare[i] = h;
                    all.add(h);
                    if (h.getTotalCount() > 0) {
                        receiverP99[n++] = h.getValueAtPercentile(99.0) / 1e3;
                    }
                }
                return new WindowLatency(all, Arrays.copyOf(receiverP99, n));
            });
            sending.forEach(ChatConnection::stop);
            errors.await(drained, "every chat sender's lines came back to it", STEP_TIMEOUT_S);
            long[] perSender = new long[senders];
            for (int s = 0; s < senders; s++) {
                perSender[s] = onLoop(channels.get(s), conns.get(s)::sentOnLoop);
            }
            conns.forEach(c -> c.expect(perSender));
            errors.await(delivered, "every chat client received every line", STEP_TIMEOUT_S);
            errors.check();
            long sent = Arrays.stream(perSender).sum();
            long deliveries = 0;
            for (int i = 0; i < clients; i++) {
                long[] got = onLoop(channels.get(i), conns.get(i)::receivedOnLoop);
                if (!Arrays.equals(got, perSender)) {
                    throw new LoadFailure("chat client u" + i + " received " + Arrays.toString(got)
                            + " lines from the senders, who sent " + Arrays.toString(perSender));
                }
                deliveries += Arrays.stream(got).sum();
            }
            if (deliveries != sent * clients) {
                throw new LoadFailure("chat: " + deliveries + " deliveries for " + sent + " lines to " + clients + " clients");
            }
            return new Outcome(figures(windows, wsPath != null), sent, deliveries);
        }
    }

    private static <T> T onLoop(Channel ch, java.util.concurrent.Callable<T> task) {
        try {
            return ch.eventLoop().submit(task).get(STEP_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LoadFailure("interrupted");
        } catch (ExecutionException | TimeoutException e) {
            throw new LoadFailure("reading a chat client's counters: " + e);
        }
    }

    /** One window's latencies: every delivery (µs), and each receiver's own p99 (ms). */
    private record WindowLatency(Histogram all, double[] receiverP99) {
    }

    private static List<Figure> figures(List<WindowPlan.Window<WindowLatency>> windows, boolean ws) {
        List<Double> rate = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        List<Double> slowest = new ArrayList<>();
        List<Double> median = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        for (WindowPlan.Window<WindowLatency> w : windows) {
            Histogram all = w.data().all();
            double[] receiverP99 = w.data().receiverP99();
            long n = all.getTotalCount();
            if (n == 0 || receiverP99.length == 0) {
                throw new LoadFailure("chat: no line was delivered in a " + w.seconds() + " s window");
            }
            Arrays.sort(receiverP99);
            rate.add(n / w.seconds());
            p99.add(all.getValueAtPercentile(99.0) / 1e3);
            slowest.add(receiverP99[receiverP99.length - 1]);
            median.add(receiverP99[receiverP99.length / 2]);
            if (w.serverCpuNanos() >= 0) {
                cpu.add(w.serverCpuNanos() / 1e3 / n);
            }
        }
        String p = ws ? "chat-ws-" : "chat-";
        List<Figure> out = new ArrayList<>(List.of(new Figure(ws ? "chat-ws-lines" : "chat-fanout", "lines/s", rate),
                new Figure(p + "p99", "ms", p99), new Figure(p + "p99-slowest", "ms", slowest),
                new Figure(p + "p99-median", "ms", median)));
        if (!cpu.isEmpty()) {
            out.add(new Figure(ws ? "chat-ws-cpu" : "chat-fanout-cpu", "us/op", cpu));
        }
        return out;
    }
}
