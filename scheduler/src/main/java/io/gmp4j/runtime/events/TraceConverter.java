package io.gmp4j.runtime.events;

import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Converts a JFR recording of the scheduler's events ({@code io.gmp4j.*}, recorded with
 * {@code gmp4j-profile.jfc}) to the Chrome/Perfetto trace event format (JSON), viewable in
 * ui.perfetto.dev or chrome://tracing: per runtime, a process "Ps" with a track per P and a
 * process "Ms" with a track per M; a slice per goroutine run on both (its P's and its M's),
 * named {@code G<id>} with why it stopped (park and its wait reason, yield, end); flow arrows
 * from the waker's slice to the woken goroutine's next slice; steals, P hand-offs, preempt
 * requests, run-queue overflows, netpoll batches, creations and ends as instant events on the
 * P's track (or the "no P" track). {@code ./gmp4j trace recording.jfr out.json}.
 *
 * <p>Times are microseconds from the recording's first gmp4j event.
 */
public final class TraceConverter {
    /** The track of events that happened without a P (a thread that is not an M, an M without one). */
    static final int NO_P_TRACK = 1_000_000;

    /** What a conversion wrote: counts of each kind of trace event. */
    public record Summary(int runtimes, int slices, int flows, int instants) {
    }

    private record Run(String runtime, long goid, int p, int m, long start, long end, String task, boolean inherit) {
    }

    private record Ready(String runtime, long goid, long waker, String landing, int p, long at) {
    }

    private record Mark(String runtime, int p, long at, String name, String args) {
    }

    /** Per runtime: its two trace processes' ids and the tracks seen in each. */
    private static final class Tracks {
        final int psPid;
        final int msPid;
        final TreeSet<Integer> ps = new TreeSet<>();
        final TreeSet<Integer> ms = new TreeSet<>();

        Tracks(int index) {
            psPid = 2 * index + 1;
            msPid = 2 * index + 2;
        }
    }

    private TraceConverter() {
    }

    /**
     * Converts {@code recording} to {@code out}, keeping only runtime {@code runtime}'s events
     * when it is not null.
     *
     * @throws IOException when the recording cannot be read (not a JFR file), or has no
     *                     gmp4j run events (recorded without {@code gmp4j-profile.jfc})
     */
    public static Summary convert(Path recording, Path out, String runtime) throws IOException {
        List<Run> runs = new ArrayList<>();
        List<Ready> readies = new ArrayList<>();
        List<Mark> instants = new ArrayList<>();
        // goid -> {park start, park reason} in time order, to name why a run stopped
        Map<String, List<long[]>> parkTimes = new HashMap<>();
        Map<String, List<String>> parkReasons = new HashMap<>();
        Map<String, List<long[]>> stops = new HashMap<>(); // yields and ends: {time, kind 0 yield 1 end}
        long origin = Long.MAX_VALUE;
        List<RecordedEvent> events;
        if (!Files.isRegularFile(recording)) {
            throw new IOException("no such recording: " + recording);
        }
        try {
            events = RecordingFile.readAllEvents(recording);
        } catch (IOException e) {
            throw new IOException("cannot read " + recording + " as a JFR recording: " + e.getMessage(), e);
        }
        for (RecordedEvent e : events) {
            String type = e.getEventType().getName();
            if (!type.startsWith("io.gmp4j.") || !e.hasField("runtime")) {
                continue; // not the scheduler's, or its CarrierSync (which carries nothing)
            }
            String rt = e.getString("runtime");
            if (runtime != null && !runtime.equals(rt)) {
                continue;
            }
            long at = nanos(e.getStartTime());
            origin = Math.min(origin, at);
            switch (type) {
                case "io.gmp4j.GoroutineRun" -> {
                    RecordedClass c = e.getClass("taskClass");
                    runs.add(new Run(rt, e.getLong("goroutineId"), e.getInt("p"), e.getInt("m"), at,
                            nanos(e.getEndTime()), c == null ? null : simpleName(c.getName()), e.getBoolean("inheritTime")));
                }
                case "io.gmp4j.GoroutineReady" -> {
                    Ready r = new Ready(rt, e.getLong("goroutineId"), e.getLong("wakerId"), e.getString("landing"), e.getInt("p"), at);
                    readies.add(r);
                    if (r.waker == r.goid && r.goid != 0) {
                        stops.computeIfAbsent(key(rt, r.goid), k -> new ArrayList<>()).add(new long[]{at, 0});
                    }
                }
                case "io.gmp4j.GoroutinePark" -> {
                    String k = key(rt, e.getLong("goroutineId"));
                    parkTimes.computeIfAbsent(k, x -> new ArrayList<>()).add(new long[]{at});
                    parkReasons.computeIfAbsent(k, x -> new ArrayList<>()).add(e.getString("reason"));
                }
                case "io.gmp4j.GoroutineCreate" -> instants.add(new Mark(rt, e.getInt("p"), at,
                        "create G" + e.getLong("goroutineId"),
                        "\"goid\":" + e.getLong("goroutineId") + ",\"parent\":" + e.getLong("parentId")));
                case "io.gmp4j.GoroutineEnd" -> {
                    instants.add(new Mark(rt, e.getInt("p"), at, "end G" + e.getLong("goroutineId"),
                            "\"goid\":" + e.getLong("goroutineId")));
                    stops.computeIfAbsent(key(rt, e.getLong("goroutineId")), k -> new ArrayList<>()).add(new long[]{at, 1});
                }
                case "io.gmp4j.Steal" -> instants.add(new Mark(rt, e.getInt("p"), at,
                        "steal from P" + e.getInt("victim"),
                        "\"victim\":" + e.getInt("victim") + ",\"count\":" + e.getInt("count")));
                case "io.gmp4j.PHandoff" -> instants.add(new Mark(rt, e.getInt("p"), at,
                        "handoff (" + e.getString("reason") + ")", "\"reason\":" + str(e.getString("reason"))));
                case "io.gmp4j.PreemptRequest" -> instants.add(new Mark(rt, e.getInt("p"), at, "preempt request",
                        "\"runningForNs\":" + e.getLong("runningFor")));
                case "io.gmp4j.RunqOverflow" -> instants.add(new Mark(rt, e.getInt("p"), at, "runq overflow",
                        "\"moved\":" + e.getInt("moved")));
                case "io.gmp4j.NetpollBatch" -> instants.add(new Mark(rt, e.getInt("p"), at,
                        "netpoll batch (" + e.getInt("count") + ")",
                        "\"count\":" + e.getInt("count") + ",\"source\":" + str(e.getString("source"))));
                default -> {
                    // an io.gmp4j event this converter does not draw
                }
            }
        }
        if (runs.isEmpty()) {
            throw new IOException(recording + " has no io.gmp4j.GoroutineRun events" + (runtime == null ? "" : " of runtime '" + runtime + "'")
                    + ": record with the profile settings, e.g. -XX:StartFlightRecording:settings=default,settings="
                    + "<gmp4j-profile.jfc>,filename=" + recording.getFileName()
                    + " (java -cp <scheduler jar> io.gmp4j.runtime.events.Settings gmp4j-profile > gmp4j-profile.jfc)");
        }
        runs.sort(Comparator.comparingLong(Run::start));

        Map<String, Tracks> tracks = new LinkedHashMap<>();
        Map<String, List<Run>> runsOf = new HashMap<>();
        for (Run r : runs) {
            Tracks t = tracks.computeIfAbsent(r.runtime, k -> new Tracks(tracks.size()));
            t.ps.add(r.p);
            t.ms.add(r.m);
            runsOf.computeIfAbsent(key(r.runtime, r.goid), k -> new ArrayList<>()).add(r);
        }
        for (Mark i : instants) {
            tracks.computeIfAbsent(i.runtime, k -> new Tracks(tracks.size())).ps.add(i.p < 0 ? NO_P_TRACK : i.p);
        }
        int slices = 0;
        int flows = 0;
        int nInstants = 0;
        try (Writer w = new BufferedWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8), 1 << 16)) {
            w.write("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
            Sep sep = new Sep(w);
            for (Map.Entry<String, Tracks> en : tracks.entrySet()) {
                Tracks t = en.getValue();
                sep.event("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + t.psPid + ",\"args\":{\"name\":"
                        + str(en.getKey() + " Ps") + "}}");
                sep.event("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + t.msPid + ",\"args\":{\"name\":"
                        + str(en.getKey() + " Ms") + "}}");
                for (int p : t.ps) {
                    sep.event("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + t.psPid + ",\"tid\":" + p
                            + ",\"args\":{\"name\":" + str(p == NO_P_TRACK ? "no P" : "P" + p) + "}}");
                }
                for (int m : t.ms) {
                    sep.event("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + t.msPid + ",\"tid\":" + m
                            + ",\"args\":{\"name\":\"M" + m + "\"}}");
                }
            }
            for (Run r : runs) {
                Tracks t = tracks.get(r.runtime);
                String k = key(r.runtime, r.goid);
                String name = r.goid == 0 ? "task " + r.task : "G" + r.goid;
                String args = "{\"goid\":" + r.goid + ",\"p\":" + r.p + ",\"m\":" + r.m
                        + ",\"inheritTime\":" + r.inherit + ",\"stop\":" + str(stopOf(r, parkTimes.get(k), parkReasons.get(k), stops.get(k))) + "}";
                String common = ",\"name\":" + str(name) + ",\"cat\":\"run\",\"ts\":" + us(r.start - origin)
                        + ",\"dur\":" + us(r.end - r.start) + ",\"args\":" + args + "}";
                sep.event("{\"ph\":\"X\",\"pid\":" + t.psPid + ",\"tid\":" + r.p + common);
                sep.event("{\"ph\":\"X\",\"pid\":" + t.msPid + ",\"tid\":" + r.m + common);
                slices++;
            }
            long flowId = 0;
            for (Ready r : readies) {
                Tracks t = tracks.get(r.runtime);
                if (t == null) {
                    continue;
                }
                boolean fromGoroutine = r.waker != 0 && r.waker != r.goid && r.p >= 0;
                Run next = r.goid == 0 ? null : firstRunFrom(runsOf.get(key(r.runtime, r.goid)), r.at);
                if (fromGoroutine && next != null) {
                    flowId++;
                    String name = str("ready (" + r.landing + ")");
                    sep.event("{\"ph\":\"s\",\"id\":" + flowId + ",\"name\":" + name + ",\"cat\":\"ready\",\"pid\":"
                            + t.psPid + ",\"tid\":" + r.p + ",\"ts\":" + us(r.at - origin)
                            + ",\"args\":{\"waker\":" + r.waker + ",\"woken\":" + r.goid + "}}");
                    sep.event("{\"ph\":\"f\",\"bp\":\"e\",\"id\":" + flowId + ",\"name\":" + name + ",\"cat\":\"ready\",\"pid\":"
                            + t.psPid + ",\"tid\":" + next.p + ",\"ts\":" + us(next.start - origin) + "}");
                    flows++;
                } else if (r.waker == 0) {
                    // readied by a thread that is not a goroutine (the poller, a timer run by an M): no slice to start from
                    sep.event(instant(t, r.p, r.at - origin, "ready G" + r.goid + " (" + r.landing + ")",
                            "\"goid\":" + r.goid + ",\"landing\":" + str(r.landing)));
                    nInstants++;
                }
            }
            for (Mark i : instants) {
                sep.event(instant(tracks.get(i.runtime), i.p, i.at - origin, i.name, i.args));
                nInstants++;
            }
            w.write("\n]}\n");
        }
        return new Summary(tracks.size(), slices, flows, nInstants);
    }

    /** Why run {@code r} stopped: the first park, yield or end inside it. */
    private static String stopOf(Run r, List<long[]> parks, List<String> reasons, List<long[]> other) {
        long best = Long.MAX_VALUE;
        String why = "?";
        if (parks != null) {
            for (int i = 0; i < parks.size(); i++) {
                long at = parks.get(i)[0];
                if (at >= r.start && at <= r.end && at < best) {
                    best = at;
                    why = "park (" + reasons.get(i) + ")";
                }
            }
        }
        if (other != null) {
            for (long[] o : other) {
                if (o[0] >= r.start && o[0] <= r.end && o[0] < best) {
                    best = o[0];
                    why = o[1] == 0 ? "yield" : "end";
                }
            }
        }
        return why;
    }

    /** The first run in {@code runs} (sorted by start) starting at or after {@code at}, or null. */
    private static Run firstRunFrom(List<Run> runs, long at) {
        if (runs == null) {
            return null;
        }
        int lo = 0;
        int hi = runs.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (runs.get(mid).start < at) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo < runs.size() ? runs.get(lo) : null;
    }

    private static String instant(Tracks t, int p, long at, String name, String args) {
        return "{\"ph\":\"i\",\"s\":\"t\",\"name\":" + str(name) + ",\"cat\":\"sched\",\"pid\":" + t.psPid
                + ",\"tid\":" + (p < 0 ? NO_P_TRACK : p) + ",\"ts\":" + us(at) + ",\"args\":{" + args + "}}";
    }

    /** Writes events separated by commas. */
    private record Sep(Writer w, boolean[] first) {
        Sep(Writer w) {
            this(w, new boolean[]{true});
        }

        void event(String json) throws IOException {
            if (!first[0]) {
                w.write(",\n");
            }
            first[0] = false;
            w.write(json);
        }
    }

    private static String key(String runtime, long goid) {
        return runtime + "#" + goid;
    }

    private static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /** Nanoseconds as the format's microseconds, to the nanosecond. */
    static String us(long nanos) {
        return String.format(Locale.ROOT, "%d.%03d", nanos / 1000, nanos % 1000);
    }

    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }

    /** A JSON string literal. */
    static String str(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /**
     * {@code TraceConverter <recording.jfr> <out.json> [--runtime NAME]}: exits 0 with a summary
     * line on standard error, 2 on bad arguments or an unreadable recording.
     */
    public static void main(String[] args) {
        String runtime = null;
        List<String> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--runtime") && i + 1 < args.length) {
                runtime = args[++i];
            } else if (args[i].startsWith("-")) {
                usage("unknown option " + args[i]);
            } else {
                files.add(args[i]);
            }
        }
        if (files.size() != 2) {
            usage("need a recording and an output file");
        }
        Path in = Path.of(files.get(0));
        Path out = Path.of(files.get(1));
        try {
            Summary s = convert(in, out, runtime);
            System.err.println("gmp4j trace: wrote " + out + ": " + s.slices() + " goroutine runs, " + s.flows()
                    + " wake-up flows, " + s.instants() + " instant events, " + s.runtimes()
                    + " runtime(s); open it in ui.perfetto.dev or chrome://tracing");
        } catch (IOException e) {
            System.err.println("gmp4j trace: " + e.getMessage());
            System.exit(2);
        }
    }

    private static void usage(String why) {
        System.err.println("gmp4j trace: " + why + "\nusage: trace <recording.jfr> <out.json> [--runtime NAME]");
        System.exit(2);
    }
}
