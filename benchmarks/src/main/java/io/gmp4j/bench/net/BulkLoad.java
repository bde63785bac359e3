package io.gmp4j.bench.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The bulk load: {@code connections} connections each streaming to the echo server and
 * reading the echo back at the same time ({@link BulkConnection}). Per measured window it
 * reports the echoed bytes per second in MB/s (10^6 bytes) and, when the server's pid is
 * known, the server's CPU time per MB in microseconds. At the end each connection stops
 * writing, waits for the rest of its echo, and both byte counts and CRC-32C checksums must
 * agree.
 *
 * @param server      the echo server
 * @param connections how many connections (4 in the benchmark)
 * @param loops       the client's event-loop threads
 */
public record BulkLoad(InetSocketAddress server, int connections, int loops) {
    /** The random data every connection sends, over and over (1 MiB). */
    static final int BLOCK = 64 * BulkConnection.CHUNK;
    /** Outbound bytes per connection above which the client stops writing until they drain. */
    static final int HIGH_WATER = 512 * 1024;
    private static final long FINISH_TIMEOUT_S = 60;

    public BulkLoad {
        if (connections < 1 || loops < 1) {
            throw new IllegalArgumentException("connections and loops must be >= 1");
        }
    }

    /** What a run measured and counted (bytes echoed back and verified, all connections). */
    public record Outcome(List<Figure> figures, long bytesVerified) {
    }

    /** Runs the load for {@code plan}'s windows; figures {@code <prefix>} (MB/s) and {@code <prefix>-cpu} (µs/MB). */
    public Outcome run(WindowPlan plan, String prefix) {
        byte[] random = new byte[BLOCK];
        new SplittableRandom(42).nextBytes(random);
        ByteBuf block = Unpooled.unreleasableBuffer(Unpooled.directBuffer(BLOCK).writeBytes(random));
        FirstError errors = new FirstError();
        CountDownLatch primed = new CountDownLatch(connections);
        CountDownLatch finished = new CountDownLatch(connections);
        List<BulkConnection> conns = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            conns.add(new BulkConnection(i, block, errors, primed, finished));
        }
        try (ClientConnections cc = new ClientConnections(loops)) {
            var channels = cc.connect(server, conns, HIGH_WATER);
            errors.await(primed, "every bulk connection got its first echo", FINISH_TIMEOUT_S);
            long[] last = {0};
            List<WindowPlan.Window<Long>> windows = plan.run(() -> {
                long total = 0;
                for (BulkConnection c : conns) {
                    total += c.received();
                }
                long inWindow = total - last[0];
                last[0] = total;
                return inWindow;
            });
            conns.forEach(BulkConnection::stop);
            if (!finished.await(FINISH_TIMEOUT_S, TimeUnit.SECONDS)) {
                errors.set(finished.getCount() + " connection(s) still waiting for their echo "
                        + FINISH_TIMEOUT_S + " s after the load stopped");
            }
            errors.check();
            long verified = 0;
            for (int i = 0; i < connections; i++) {
                BulkConnection c = conns.get(i);
                String bad = channels.get(i).eventLoop().submit(c::verify).get(10, TimeUnit.SECONDS);
                if (bad != null) {
                    throw new LoadFailure(bad);
                }
                verified += channels.get(i).eventLoop().submit(c::sentOnLoop).get(10, TimeUnit.SECONDS);
            }
            return new Outcome(figures(windows, prefix), verified);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LoadFailure("interrupted");
        } catch (ExecutionException | TimeoutException e) {
            throw new LoadFailure("verifying the bulk connections: " + e);
        } finally {
            block.unwrap().release();
        }
    }

    private static List<Figure> figures(List<WindowPlan.Window<Long>> windows, String prefix) {
        List<Double> mbps = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        for (WindowPlan.Window<Long> w : windows) {
            long bytes = w.data();
            if (bytes == 0) {
                throw new LoadFailure("bulk: no byte came back in a " + w.seconds() + " s window (bytes per window: "
                        + windows.stream().map(x -> Long.toString(x.data())).toList() + ")");
            }
            mbps.add(bytes / 1e6 / w.seconds());
            if (w.serverCpuNanos() >= 0) {
                cpu.add(w.serverCpuNanos() / 1e3 / (bytes / 1e6));
            }
        }
        List<Figure> out = new ArrayList<>(List.of(new Figure(prefix, "MB/s", mbps)));
        if (!cpu.isEmpty()) {
            out.add(new Figure(prefix + "-cpu", "us/MB", cpu));
        }
        return out;
    }
}
