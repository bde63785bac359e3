/**
 * Blocking-style TCP networking for goroutines, on Netty 4.2: Go's {@code net} package shape
 * ({@link io.gmp4j.net.Net#listen}, {@link io.gmp4j.net.Listener#accept},
 * {@link io.gmp4j.net.Net#dial}, {@link io.gmp4j.net.Conn#read}/{@link io.gmp4j.net.Conn#write},
 * deadlines, half-close) where a blocking call parks only the calling goroutine.
 * <pre>{@code
 * Go.main(() -> {
 *     try (Listener l = Net.listen(":8080")) {
 *         while (true) {
 *             Conn c = l.accept();
 *             go(() -> {                      // one goroutine per connection
 *                 byte[] buf = new byte[4096];
 *                 try (c) {
 *                     for (int n; (n = c.read(buf, 0, buf.length)) > 0; ) {
 *                         c.write(buf, 0, n);  // echo
 *                     }
 *                 } catch (IOException e) { ... }
 *             });
 *         }
 *     }
 * });
 * }</pre>
 *
 * <h2>The poller: a thread of the runtime's own, or a loop per P</h2>
 * Each runtime that uses the network gets one poller, in one of two shapes (issue 4's options),
 * chosen with {@code -Dgmp4j.netpoll}; both use a Netty {@code ManualIoEventLoop} with the
 * epoll {@code IoHandler} when the native transport loads, NIO otherwise (the stats say which:
 * {@code netpoll=[epoll ...]}):
 * <ul>
 *   <li>{@code thread} (option (a)): a platform thread without a P (like sysmon)
 *       owns one loop and blocks in it;</li>
 *   <li>{@code perp} (the default, option (b)): one loop per P, each owned by a poll goroutine (a loop
 *       answers to one thread for life, so its owner is a goroutine that any M can run). The
 *       scheduler's {@code netpoll} readies a loop's poll goroutine where Go calls it: before
 *       stealing (non-blocking), from an M that found nothing to do (which then blocks in the
 *       loop inside a syscall that hands its P off), and from sysmon after 10 ms without a poll;
 *       the polling M runs the last goroutine readied itself.</li>
 * </ul>
 * The loops per P are the default: they serve echo, bulk transfer and the chat fan-out faster
 * than the poller thread, which in turn gives the lower tail at 16 connections (the figures
 * are in benchmarks/PERFORMANCE-LOG.md). A goroutine that hands its loop a write readies the
 * poll goroutine at the tail of its P's queue ({@code Landing.LOCAL_TAIL}), so the
 * writes of every runnable goroutine go out in one turn of the loop, not a turn each.
 *
 * <p>Readiness enters the scheduler as Go's netpoll does: the goroutines readied during one
 * event-loop turn are injected as one batch (Go's {@code injectglist}: to the global queue,
 * with an M started per idle P). The wake-ups themselves are ordinary {@code G.ready} calls;
 * inside a poll turn ({@code NetpollHost.beginTurn}/{@code endTurn}) the scheduler recognises
 * the poll goroutine or poller thread in {@code execute} and collects them instead of
 * queueing one by one.
 *
 * <h2>How a runtime gets its poller</h2>
 * Lazily: the first {@code Net.listen} or {@code Net.dial} in a goroutine starts the poller of
 * that goroutine's runtime (from any other thread, the default runtime's) and attaches it with
 * {@code Scheduler.attachNetpoll(start)} (the {@code io.gmp4j.runtime.spi} seam), as Go starts
 * its poller on the first network operation, rather than through the runtime's builder:
 * (1) {@code Go.main} and the default runtime then need no set-up to use the network; (2) a
 * runtime that never touches the network pays for no thread and no epoll fd; (3) no M polls
 * a Netty loop itself (a loop has one owning thread): a poll goroutine or the poller thread
 * does. Once attached,
 * the runtime owns it: {@code checkdead} counts goroutines parked on it as waiting for an
 * external event (not a deadlock), its stats describe it, and {@code GoRuntime.close()} shuts
 * its event loop and thread down (closing every socket).
 *
 * <h2>Reads, writes and memory</h2>
 * autoRead starts off: the first read turns it on, and from then on the loop reads ahead like a
 * socket's receive buffer until 128 KiB are queued unread, when it stops until a reader drains
 * the queue to 32 KiB (so a steady request/response exchange costs no hand-off per read).
 * Writes copy into pooled buffers handed to the loop and park while the connection's outbound
 * buffer is above its high watermark (128 KiB), so a slow peer costs bounded memory. Every
 * pooled buffer is released exactly once (the tests run Netty's leak detector at PARANOID and
 * fail on a report).
 *
 * <p>By default (epoll only; {@code -Dgmp4j.netpoll.directWrite=false} turns it off), Go's
 * write path: while the loop holds none of a connection's bytes, the writing goroutine makes
 * the {@code write} syscall itself, on the channel's own descriptor, holding a reference that
 * the loop's close of the descriptor waits for (Go's {@code fdMutex}: the kernel reuses
 * numbers, so a write racing the close could otherwise land in another connection); one
 * descriptor per connection. What the kernel does not take, and every write after it
 * until the loop has sent everything, goes through the loop. It takes the hand-off of each
 * write and the loop turn it asked for out of a request/response exchange: echo 1.14x at 16
 * connections and 1.00-1.07x at 256 (measured in one process switching the path every 500
 * ms; benchmarks/PERFORMANCE-LOG.md).
 *
 * <h2>Errors</h2>
 * Java's exception types with Go's messages, {@code op tcp address: syscall: text}, addresses
 * as {@code host:port} ({@code [::1]:port}), Netty's or the JDK's exception as the cause:
 * {@link java.net.ConnectException} ("dial tcp 127.0.0.1:9: connect: connection refused"),
 * {@link java.net.BindException} ("listen tcp 127.0.0.1:7000: bind: address already in use"),
 * {@link java.net.SocketException} ("read tcp 127.0.0.1:5000->127.0.0.1:41222: read:
 * connection reset by peer", "write: broken pipe", "dial tcp 127.0.0.1:9: socket: too many
 * open files", "accept tcp 127.0.0.1:7000: accept4: too many open files"),
 * {@link io.gmp4j.net.DeadlineExceededException} ("dial tcp 127.0.0.1:9: i/o timeout", a
 * {@link java.net.SocketTimeoutException}), {@link io.gmp4j.net.NetClosedException} ("use of
 * closed network connection", Go's {@code net.ErrClosed}); end of stream is a read of -1.
 * {@link io.gmp4j.net.Net#isTemporary} is Go's {@code net.Error.Temporary()}: descriptors
 * exhausted and timeouts, after which an accept loop pauses and accepts again
 * ({@link io.gmp4j.net.Listener#accept}). Closing a listener or connection wakes every
 * goroutine parked on it with {@code NetClosedException}.
 *
 * <h2>Helpers</h2>
 * {@link io.gmp4j.net.Listener#limit} (Go's {@code netutil.LimitListener}),
 * {@link io.gmp4j.net.Io#copy} (done by the event loop when both connections share one, as
 * Go's {@code io.Copy} splices two TCP connections), {@link io.gmp4j.net.Io#proxy} (a two-way
 * copy with half-close),
 * {@link io.gmp4j.net.Io.LineReader} (Go's {@code bufio.Scanner} over lines, with a maximum
 * length); for a buffered writer wrap {@link io.gmp4j.net.Conn#outputStream()} in a
 * {@link java.io.BufferedOutputStream}.
 *
 * <h2>Limits of this version</h2>
 * <b>Netty 4.2.18's lost registration, worked around.</b> When a channel's epoll interest set
 * became empty (its input shut down, no flush pending), Netty deleted the descriptor from the
 * epoll set but kept its registration marked as added; the next EPOLLOUT then failed with
 * ENOENT, and Netty shut the output and dropped what was queued. Under load, 6 of 400
 * half-closed echoes of 16 MiB lost bytes that way. {@code EpollKeepRegistered} submits an
 * empty set as {@code EPOLLET} alone instead; the same harness then lost 0 of 800.
 * {@code ConnTest.writesAfterThePeersFinAllArrive} reproduces the loss every time without it:
 * the server reads the peer's FIN, then writes megabytes through 16 KiB socket buffers.
 * A write returns once its bytes are with the kernel or queued on the loop (Go's once the
 * kernel took them): a failure the writing goroutine meets itself is thrown at once, one the
 * loop meets surfaces on a later call; a connection closed with unsent output keeps sending it
 * for at most 5 s. Concurrent writes on one connection take turns whole write by whole write,
 * as Go's do; concurrent reads may split the stream between them, as Go's may.
 */
package io.gmp4j.net;
