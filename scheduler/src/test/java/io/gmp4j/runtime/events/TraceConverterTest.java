package io.gmp4j.runtime.events;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.runtime.G;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A recording of a known program, converted to the trace format and read back: two goroutines
 * ping-ponging N times at procs 1 give exactly the runs, wake-up flows, creations and ends the
 * program implies.
 */
@ExtendWith(NoUncaughtExceptions.class)
class TraceConverterTest {
    private static final int N = 500;

    /**
     * A (spawned from the test thread) spawns B, then N times: park, ready B. B, N times: ready
     * A, park. At procs 1 each park really parks (its partner cannot run until it does), so:
     * A runs N+1 times (N end in park "ping", the last in its end), B too ("pong"); A wakes B N
     * times plus its creation (N+1 flows A to B), B wakes A N times. A yield (sysmon's preempt
     * at go()'s safe point after a 10 ms OS stall) adds one run ending in "yield" and nothing
     * else; a P hand-off (a longer stall) would let A and B overlap, so such an attempt is
     * repeated.
     */
    @Test
    void pingPongAtProcsOneGivesExactlyItsRunsFlowsCreationsAndEnds(@TempDir Path dir) throws Exception {
        for (int attempt = 1; ; attempt++) {
            String name = "trace-pingpong-" + attempt;
            Path jfr = dir.resolve(name + ".jfr");
            Path json = dir.resolve(name + ".json");
            long[] ids = record(name, jfr);
            int handoffs = count(jfr, "io.gmp4j.PHandoff", name);
            if (handoffs > 0 && attempt < 5) {
                System.out.println("attempt " + attempt + ": " + handoffs + " P hand-off(s) disturbed the run; again");
                continue;
            }
            assertEquals(0, handoffs, "every attempt was disturbed by a P hand-off");
            TraceConverter.Summary summary = TraceConverter.convert(jfr, json, name);
            check(name, ids[0], ids[1], json, summary);
            return;
        }
    }

    /** Runs the program in runtime {@code name} under the profile settings; returns A's and B's ids. */
    private static long[] record(String name, Path jfr) throws Exception {
        try (Recording rec = new Recording(Settings.configuration(Settings.PROFILE));
             GoRuntime rt = GoRuntime.builder().maxProcs(1).name(name).build()) {
            rec.start();
            AtomicReference<G> bRef = new AtomicReference<>();
            G a = Scheduler.of(rt).go(() -> {
                G self = G.current();
                G b = Scheduler.of(rt).go(() -> {
                    G me = G.current();
                    for (int i = 0; i < N; i++) {
                        self.ready();
                        me.park("pong");
                    }
                });
                bRef.set(b);
                for (int i = 0; i < N; i++) {
                    self.park("ping");
                    b.ready();
                }
            });
            join(a.thread(), rt);
            join(bRef.get().thread(), rt);
            rec.stop();
            rec.dump(jfr);
            return new long[]{a.id(), bRef.get().id()};
        }
    }

    private static void join(Thread t, GoRuntime rt) throws InterruptedException {
        assertTrue(t.join(java.time.Duration.ofSeconds(TestSupport.TIMEOUT_S)), () -> "goroutine did not end: " + rt.stats() + "\n" + rt.dump());
    }

    @SuppressWarnings("unchecked")
    private static void check(String runtime, long a, long b, Path json, TraceConverter.Summary summary) throws IOException {
        Map<String, Object> root = (Map<String, Object>) MiniJson.parse(Files.readString(json));
        List<Map<String, Object>> events = (List<Map<String, Object>>) (List<?>) root.get("traceEvents");
        // the processes: "<runtime> Ps" and "<runtime> Ms"
        Map<String, Integer> pidOf = new HashMap<>();
        for (Map<String, Object> e : events) {
            if ("M".equals(e.get("ph")) && "process_name".equals(e.get("name"))) {
                pidOf.put((String) ((Map<String, Object>) e.get("args")).get("name"), num(e.get("pid")));
            }
        }
        int ps = pidOf.get(runtime + " Ps");
        int ms = pidOf.get(runtime + " Ms");
        assertEquals(2, pidOf.size(), () -> "one runtime, two processes: " + pidOf);

        Map<String, List<Map<String, Object>>> slicesOnP = new HashMap<>();
        Map<String, Integer> slicesOnM = new HashMap<>();
        Map<String, Integer> stops = new HashMap<>();
        for (Map<String, Object> e : events) {
            if (!"X".equals(e.get("ph"))) {
                continue;
            }
            String g = (String) e.get("name");
            if (num(e.get("pid")) == ps) {
                slicesOnP.computeIfAbsent(g, k -> new ArrayList<>()).add(e);
                stops.merge(g + " " + ((Map<String, Object>) e.get("args")).get("stop"), 1, Integer::sum);
                assertEquals(0, num(e.get("tid")), "procs 1: every run on P0");
            } else {
                assertEquals(ms, num(e.get("pid")));
                slicesOnM.merge(g, 1, Integer::sum);
            }
        }
        String ga = "G" + a;
        String gb = "G" + b;
        assertEquals(Map.of(ga, 0, gb, 0).keySet(), slicesOnP.keySet(), "runs of A and B only");
        for (String g : List.of(ga, gb)) {
            String reason = g.equals(ga) ? "ping" : "pong";
            int yields = stops.getOrDefault(g + " yield", 0);
            assertEquals(N, stops.getOrDefault(g + " park (" + reason + ")", 0), () -> g + " stops: " + stops);
            assertEquals(1, stops.getOrDefault(g + " end", 0), () -> g + " stops: " + stops);
            assertEquals(N + 1 + yields, slicesOnP.get(g).size(), () -> g + " stops: " + stops);
            assertEquals(slicesOnP.get(g).size(), slicesOnM.get(g), g + ": one slice on its M's track per slice on its P's");
        }

        // flows: each start inside a slice of the waker on that P, each end at a slice start of the woken
        Map<Integer, Map<String, Object>> starts = new HashMap<>();
        Map<Integer, Map<String, Object>> ends = new HashMap<>();
        for (Map<String, Object> e : events) {
            if ("s".equals(e.get("ph"))) {
                assertNull(starts.put(num(e.get("id")), e));
            } else if ("f".equals(e.get("ph"))) {
                assertEquals("e", e.get("bp"));
                assertNull(ends.put(num(e.get("id")), e));
            }
        }
        assertEquals(starts.keySet(), ends.keySet(), "every flow has its two ends");
        Map<String, Integer> flows = new HashMap<>();
        for (Map.Entry<Integer, Map<String, Object>> en : starts.entrySet()) {
            Map<String, Object> s = en.getValue();
            Map<String, Object> f = ends.get(en.getKey());
            long sAt = nanos(s.get("ts"));
            long fAt = nanos(f.get("ts"));
            assertTrue(fAt >= sAt, "the woken runs after its waker readied it");
            String waker = enclosing(slicesOnP, sAt, num(s.get("tid")));
            String woken = startingAt(slicesOnP, fAt, num(f.get("tid")));
            assertNotNull(waker, () -> "flow " + s + " starts in no slice");
            assertNotNull(woken, () -> "flow " + f + " ends at no slice's start");
            flows.merge(waker + "->" + woken, 1, Integer::sum);
        }
        assertEquals(Map.of(ga + "->" + gb, N + 1, gb + "->" + ga, N), flows);

        // creations and ends: A and B, once each
        Map<String, Integer> instants = new HashMap<>();
        for (Map<String, Object> e : events) {
            if ("i".equals(e.get("ph"))) {
                String n = (String) e.get("name");
                if (n.startsWith("create ") || n.startsWith("end ")) {
                    instants.merge(n, 1, Integer::sum);
                }
            }
        }
        assertEquals(Map.of("create " + ga, 1, "create " + gb, 1, "end " + ga, 1, "end " + gb, 1), instants);
        int slices = slicesOnP.values().stream().mapToInt(List::size).sum();
        assertEquals(slices, summary.slices());
        assertEquals(2 * N + 1, summary.flows());
    }

    /** The name of the slice on track {@code tid} whose [ts, ts+dur] holds {@code at}. */
    private static String enclosing(Map<String, List<Map<String, Object>>> slices, long at, int tid) {
        for (Map.Entry<String, List<Map<String, Object>>> en : slices.entrySet()) {
            for (Map<String, Object> x : en.getValue()) {
                long ts = nanos(x.get("ts"));
                if (num(x.get("tid")) == tid && ts <= at && at <= ts + nanos(x.get("dur"))) {
                    return en.getKey();
                }
            }
        }
        return null;
    }

    /** The name of the slice on track {@code tid} that starts at {@code at}. */
    private static String startingAt(Map<String, List<Map<String, Object>>> slices, long at, int tid) {
        for (Map.Entry<String, List<Map<String, Object>>> en : slices.entrySet()) {
            for (Map<String, Object> x : en.getValue()) {
                if (num(x.get("tid")) == tid && nanos(x.get("ts")) == at) {
                    return en.getKey();
                }
            }
        }
        return null;
    }

    private static int num(Object o) {
        return (int) Math.round((Double) o);
    }

    private static long nanos(Object us) {
        return Math.round((Double) us * 1000);
    }

    static int count(Path jfr, String type, String runtime) throws IOException {
        int n = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (e.getEventType().getName().equals(type) && runtime.equals(e.getString("runtime"))) {
                n++;
            }
        }
        return n;
    }

    @Test
    void aRecordingWithoutRunEventsIsRefusedWithTheSettingsToUse(@TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("empty.jfr");
        try (Recording rec = new Recording(Settings.configuration(Settings.DEFAULT))) {
            rec.start();
            rec.stop();
            rec.dump(jfr);
        }
        IOException e = assertThrows(IOException.class, () -> TraceConverter.convert(jfr, dir.resolve("o.json"), null));
        assertTrue(e.getMessage().contains("gmp4j-profile.jfc"), e.getMessage());
        Path notJfr = Files.writeString(dir.resolve("not.jfr"), "hello");
        IOException e2 = assertThrows(IOException.class, () -> TraceConverter.convert(notJfr, dir.resolve("o.json"), null));
        assertTrue(e2.getMessage().contains("cannot read"), e2.getMessage());
        IOException e3 = assertThrows(IOException.class, () -> TraceConverter.convert(dir.resolve("missing.jfr"), dir.resolve("o.json"), null));
        assertTrue(e3.getMessage().contains("no such recording"), e3.getMessage());
    }


    /** The empty CarrierSync events (no runtime field) are skipped, not taken for a runtime's. */
    @Test
    void carrierSyncEventsAreSkipped(@TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("sync.jfr");
        try (Recording rec = new Recording(Settings.configuration(Settings.PROFILE))) {
            rec.start();
            CarrierSyncEvent.sync();
            GoroutineRunEvent.start("by-hand", 7, 0, 0, false, null).finish();
            CarrierSyncEvent.sync();
            rec.stop();
            rec.dump(jfr);
        }
        assertTrue(RecordingFile.readAllEvents(jfr).stream().anyMatch(e -> e.getEventType().getName().equals("io.gmp4j.CarrierSync")),
                "a platform thread's sync is recorded");
        TraceConverter.Summary s = TraceConverter.convert(jfr, dir.resolve("sync.json"), null);
        assertEquals(new TraceConverter.Summary(1, 1, 0, 0), s);
    }
}
