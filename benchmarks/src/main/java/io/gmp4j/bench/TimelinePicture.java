package io.gmp4j.bench;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Draws the P tracks of a timeline that {@code ./gmp4j trace} wrote (io.gmp4j.runtime.events.
 * TraceConverter's JSON, one event per line) as a PNG: a row per P, a box per goroutine run
 * coloured by goroutine, the wake-up flows as lines from waker to woken, the instant events as
 * ticks. For a picture of the timeline where no browser is at hand.
 *
 * <pre>
 * TimelinePicture trace.json out.png [--from-us T] [--to-us T] [--width PX]
 * </pre>
 */
public final class TimelinePicture {
    private static final Pattern NUM = Pattern.compile("\"(pid|tid|ts|dur|id)\":(-?[0-9.]+)");
    private static final Pattern STR = Pattern.compile("\"(ph|name)\":\"((?:[^\"\\\\]|\\\\.)*)\"");

    private record Ev(String ph, String name, int pid, int tid, double ts, double dur, long id) {
    }

    private TimelinePicture() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: TimelinePicture trace.json out.png [--from-us T] [--to-us T] [--width PX]");
            System.exit(2);
        }
        double from = 0;
        double to = Double.MAX_VALUE;
        int width = 1600;
        for (int i = 2; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--from-us" -> from = Double.parseDouble(args[i + 1]);
                case "--to-us" -> to = Double.parseDouble(args[i + 1]);
                case "--width" -> width = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        List<Ev> evs = new ArrayList<>();
        Map<Integer, String> processes = new HashMap<>();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            Ev e = parse(line);
            if (e == null) {
                continue;
            }
            if (e.ph.equals("M") && line.contains("\"process_name\"")) {
                Matcher m = Pattern.compile("\"args\":\\{\"name\":\"([^\"]*)\"").matcher(line);
                if (m.find()) {
                    processes.put(e.pid, m.group(1));
                }
            }
            evs.add(e);
        }
        // rows: the P tracks of every "... Ps" process
        TreeMap<Long, Integer> rows = new TreeMap<>();
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (Ev e : evs) {
            if (e.ph.equals("X") && processes.getOrDefault(e.pid, "").endsWith(" Ps") && e.ts + e.dur >= from && e.ts <= to) {
                rows.putIfAbsent(row(e), 0);
                lo = Math.min(lo, Math.max(from, e.ts));
                hi = Math.max(hi, Math.min(to, e.ts + e.dur));
            }
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("no goroutine runs on a P track in " + args[0] + " between " + from + " and " + to + " us");
        }
        int r = 0;
        for (Map.Entry<Long, Integer> en : rows.entrySet()) {
            en.setValue(r++);
        }
        int left = 150;
        int rowH = 46;
        int top = 40;
        int height = top + rows.size() * rowH + 40;
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        double span = Math.max(hi - lo, 1e-3);
        double scale = (width - left - 20) / span;
        g.setColor(Color.DARK_GRAY);
        g.drawString(String.format(Locale.ROOT, "gmp4j timeline, %.1f us to %.1f us (%s)", lo, hi, Path.of(args[0]).getFileName()), 10, 20);
        for (Map.Entry<Long, Integer> en : rows.entrySet()) {
            int y = top + en.getValue() * rowH;
            int pid = (int) (en.getKey() >> 32);
            int tid = (int) (long) en.getKey();
            g.setColor(new Color(245, 245, 245));
            g.fillRect(left, y, width - left - 20, rowH - 8);
            g.setColor(Color.DARK_GRAY);
            g.drawString(processes.getOrDefault(pid, "?").replace(" Ps", "") + " " + (tid == 1_000_000 ? "no P" : "P" + tid), 10, y + rowH / 2);
        }
        Map<Long, Ev> flowStarts = new HashMap<>();
        for (Ev e : evs) {
            Integer row = rows.get(row(e));
            if (row == null) {
                continue;
            }
            int y = top + row * rowH;
            switch (e.ph) {
                case "X" -> {
                    if (e.ts + e.dur < lo || e.ts > hi) {
                        continue;
                    }
                    int x0 = left + (int) ((Math.max(e.ts, lo) - lo) * scale);
                    int x1 = left + (int) ((Math.min(e.ts + e.dur, hi) - lo) * scale);
                    g.setColor(colour(e.name));
                    g.fillRect(x0, y + 4, Math.max(1, x1 - x0), rowH - 16);
                    if (x1 - x0 > 8 * e.name.length()) {
                        g.setColor(Color.BLACK);
                        g.drawString(e.name, x0 + 3, y + rowH / 2 + 2);
                    }
                }
                case "i" -> {
                    if (e.ts >= lo && e.ts <= hi) {
                        int x = left + (int) ((e.ts - lo) * scale);
                        g.setColor(Color.RED);
                        g.fillPolygon(new int[]{x - 4, x + 4, x}, new int[]{y, y, y + 7}, 3);
                    }
                }
                case "s" -> flowStarts.put(e.id, e);
                default -> {
                }
            }
        }
        g.setStroke(new BasicStroke(1f));
        g.setColor(new Color(40, 40, 160));
        for (Ev f : evs) {
            Ev s = f.ph.equals("f") ? flowStarts.get(f.id) : null;
            Integer rs = s == null ? null : rows.get(row(s));
            Integer rf = rows.get(row(f));
            if (s == null || rs == null || rf == null || s.ts < lo || f.ts > hi) {
                continue;
            }
            int xs = left + (int) ((s.ts - lo) * scale);
            int xf = left + (int) ((f.ts - lo) * scale);
            g.drawLine(xs, top + rs * rowH + rowH - 12, xf, top + rf * rowH + 4);
        }
        g.setColor(Color.DARK_GRAY);
        g.drawString("boxes: goroutine runs (one colour per goroutine); blue lines: wake-ups, waker to woken; red ticks: steals, hand-offs, creations, ends",
                10, height - 14);
        g.dispose();
        ImageIO.write(img, "png", Path.of(args[1]).toFile());
        System.err.println("TimelinePicture: wrote " + args[1] + " (" + rows.size() + " P tracks, " + String.format(Locale.ROOT, "%.1f", span) + " us)");
    }

    private static long row(Ev e) {
        return ((long) e.pid << 32) | (e.tid & 0xffffffffL);
    }

    private static Color colour(String name) {
        float h = (name.hashCode() * 0.618034f) % 1f;
        return Color.getHSBColor(h < 0 ? h + 1 : h, 0.45f, 0.95f);
    }

    private static Ev parse(String line) {
        Matcher s = STR.matcher(line);
        String ph = null;
        String name = "";
        while (s.find()) {
            if (s.group(1).equals("ph") && ph == null) {
                ph = s.group(2);
            } else if (s.group(1).equals("name") && name.isEmpty()) {
                name = s.group(2);
            }
        }
        if (ph == null) {
            return null;
        }
        Map<String, Double> n = new HashMap<>();
        Matcher m = NUM.matcher(line);
        while (m.find()) {
            n.putIfAbsent(m.group(1), Double.parseDouble(m.group(2)));
        }
        return new Ev(ph, name, n.getOrDefault("pid", 0.0).intValue(), n.getOrDefault("tid", 0.0).intValue(),
                n.getOrDefault("ts", 0.0), n.getOrDefault("dur", 0.0), n.getOrDefault("id", 0.0).longValue());
    }
}
