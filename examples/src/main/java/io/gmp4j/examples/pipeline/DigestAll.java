package io.gmp4j.examples.pipeline;

import io.gmp4j.Go;
import io.gmp4j.Syscall;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.RecvChan;
import io.gmp4j.chan.Select;
import io.gmp4j.context.Context;
import io.gmp4j.sync.ErrGroup;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Go's bounded-parallelism {@code MD5All} (go.dev/blog/pipelines), with SHA-256: one goroutine
 * walks the tree, a fixed number of digesters read files, and the caller collects the results.
 * File I/O blocks the OS thread, so every read goes through {@link Syscall#blocking}: the
 * scheduler hands the P to another M while a read is slow.
 */
public final class DigestAll {
    /** One file's digest (or the error reading it). */
    public record Result(Path path, String sha256, long size, IOException error) {
    }

    /** Called now and then with the files done so far and the bytes read (a progress line). */
    @FunctionalInterface
    public interface Progress {
        void update(long files, long bytes);
    }

    private DigestAll() {
    }

    /**
     * Digests every regular file under {@code root} with {@code parallelism} digesters. Must
     * run in a goroutine. A walk failure cancels the digesters and is thrown.
     */
    public static Map<Path, String> digestAll(Path root, int parallelism, Progress progress) throws IOException {
        ErrGroup g = ErrGroup.withContext(Context.background());
        Context ctx = g.context();
        Chan<Path> paths = new Chan<>();
        Chan<Result> results = new Chan<>();

        g.go(() -> {                                          // the walker
            try (Stream<Path> walk = Syscall.blocking(() -> Files.walk(root))) {
                Select s = new Select();
                for (Path p : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
                    s.reset();
                    s.send(paths, p);
                    int done = s.recv(ctx.done());
                    if (s.select() == done) {
                        return;
                    }
                }
            } finally {
                paths.close();
            }
        });
        ErrGroup digesters = new ErrGroup();
        for (int i = 0; i < parallelism; i++) {
            digesters.go(() -> {                               // bounded: parallelism goroutines
                Select s = new Select();
                for (Path p : paths) {
                    s.reset();
                    s.send(results, digest(p));
                    int done = s.recv(ctx.done());
                    if (s.select() == done) {
                        return;
                    }
                }
            });
        }
        Go.go(() -> {                                         // close results when all are done
            digesters.await();
            results.close();
        });

        Map<Path, String> out = new TreeMap<>();
        long files = 0;
        long bytes = 0;
        long lastReport = System.nanoTime();
        for (Result r : results) {
            if (r.error() == null) {
                out.put(r.path(), r.sha256());
                bytes += r.size();
            }
            files++;
            if (progress != null && System.nanoTime() - lastReport > 1_000_000_000L) {
                lastReport = System.nanoTime();
                progress.update(files, bytes);
            }
        }
        Throwable err = g.await();
        if (err instanceof IOException e) {
            throw e;
        } else if (err != null) {
            throw new IOException("walking " + root + " failed", err);
        }
        return out;
    }

    /** Reads one file through Syscall.blocking, 64 KiB at a time. */
    static Result digest(Path p) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            long size = 0;
            byte[] buf = new byte[64 * 1024];
            try (InputStream in = Syscall.blocking(() -> Files.newInputStream(p))) {
                while (true) {
                    int n = Syscall.blocking(() -> in.read(buf));
                    if (n < 0) {
                        break;
                    }
                    md.update(buf, 0, n);
                    size += n;
                }
            }
            return new Result(p, HexFormat.of().formatHex(md.digest()), size, null);
        } catch (IOException e) {
            return new Result(p, null, 0, e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
