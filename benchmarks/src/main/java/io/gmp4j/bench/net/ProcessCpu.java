package io.gmp4j.bench.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU time (user + system, all threads) a process has used so far, read from
 * {@code /proc/<pid>/stat} (fields 14 and 15, {@code utime} and {@code stime}, in clock ticks
 * of {@code getconf CLK_TCK}, 100 per second on Linux: a 1-second window of one busy core
 * reads to within 1%).
 */
public final class ProcessCpu {
    private static final long TICKS_PER_SECOND = clockTicks();

    private final long pid;
    private final Path stat;

    private ProcessCpu(long pid) {
        this.pid = pid;
        this.stat = Path.of("/proc", Long.toString(pid), "stat");
    }

    /** The process {@code pid}; fails with a clear message when /proc has no such process. */
    public static ProcessCpu of(long pid) {
        ProcessCpu p = new ProcessCpu(pid);
        if (!Files.isReadable(p.stat)) {
            throw new IllegalArgumentException("cannot read " + p.stat + ": no process " + pid
                    + " (or no /proc: the server CPU figures need Linux)");
        }
        return p;
    }

    /** utime + stime of the process so far, in nanoseconds. */
    public long nanos() {
        String s;
        try {
            s = Files.readString(stat, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + stat + " (process " + pid + " gone?)", e);
        }
        return parseTicks(s) * (1_000_000_000L / TICKS_PER_SECOND);
    }

    /**
     * utime + stime in clock ticks from a {@code /proc/<pid>/stat} line. The second field, the
     * command name in parentheses, may itself hold spaces and parentheses, so fields are
     * counted from the last ')': utime and stime are the 12th and 13th after it.
     */
    static long parseTicks(String statLine) {
        int close = statLine.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + statLine);
        }
        String[] f = statLine.substring(close + 1).trim().split("\\s+");
        if (f.length < 13) {
            throw new IllegalArgumentException("too few fields in /proc/<pid>/stat: " + statLine);
        }
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** {@code getconf CLK_TCK}, or Linux's fixed 100 when getconf cannot be run. */
    private static long clockTicks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            if (p.waitFor() == 0) {
                long t = Long.parseLong(out);
                if (t > 0 && 1_000_000_000L % t == 0) {
                    return t;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // fall back to Linux's USER_HZ
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 100;
    }
}
