package io.gmp4j.net;

import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.unix.Errors;

import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.SocketAddress;
import java.net.SocketException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Go's {@code net.OpError} text for the failures Netty and the JDK report: {@code op tcp
 * address: syscall: errno text}, as in {@code dial tcp 127.0.0.1:9201: socket: too many open
 * files}, with the original exception as the cause. Netty's native messages read
 * {@code method(..) failed: Strerror} (the errno's C text; Go's texts are the same with a
 * lower-case first letter); the JDK's (the NIO transport) are the C text alone.
 */
final class NetErrors {
    /** Go's {@code syscall.Errno.Temporary}: EINTR, EMFILE, ENFILE and the timeouts (EAGAIN, ETIMEDOUT). */
    private static final Set<String> TEMPORARY = Set.of("interrupted system call", "too many open files",
            "too many open files in system", "resource temporarily unavailable", "connection timed out");
    /** Go's accept: a connection reset or aborted in the backlog is temporary too. */
    private static final Set<String> ACCEPT_TEMPORARY = Set.of("connection reset by peer",
            "software caused connection abort");
    /** Netty's native method names, as Go's syscall names (Go accepts with accept4 on Linux). */
    private static final Map<String, String> SYSCALLS = Map.ofEntries(
            Map.entry("newSocketStream", "socket"), Map.entry("socket", "socket"),
            Map.entry("connect", "connect"), Map.entry("finishConnect", "connect"),
            Map.entry("bind", "bind"), Map.entry("listen", "listen"), Map.entry("accept", "accept4"),
            Map.entry("write", "write"), Map.entry("writeAddress", "write"), Map.entry("writev", "write"),
            Map.entry("writevAddresses", "write"), Map.entry("send", "write"), Map.entry("sendAddress", "write"),
            Map.entry("read", "read"), Map.entry("readAddress", "read"), Map.entry("recv", "read"),
            Map.entry("recvAddress", "read"), Map.entry("shutdown", "shutdown"));

    private NetErrors() {
    }

    /**
     * Loads the classes of the error path now: a process out of descriptors cannot open a
     * class file (classes read from a directory; a jar stays open), and its first
     * "too many open files" would fail as a {@code NoClassDefFoundError} instead.
     */
    static void load() {
        isTemporary(conn("load", "read", new IOException("read(..) failed: Connection reset by peer")));
    }

    /** See {@link Net#isTemporary}: read from our own message's end, so a copy of the exception answers alike. */
    static boolean isTemporary(Throwable e) {
        if (e instanceof DeadlineExceededException) {
            return true;
        }
        if (!(e instanceof SocketException) || e instanceof NetClosedException || e.getMessage() == null) {
            return false;
        }
        String m = e.getMessage();
        int colon = m.lastIndexOf(": ");
        String text = colon < 0 ? m : m.substring(colon + 2);
        return TEMPORARY.contains(text) || m.startsWith("accept ") && ACCEPT_TEMPORARY.contains(text);
    }

    /** Go's form of an address: {@code host:port}, {@code [::1]:port} (RFC 5952), no leading slash. */
    static String hostPort(SocketAddress a) {
        if (a instanceof InetSocketAddress i) {
            if (i.getAddress() instanceof Inet6Address a6) {
                return "[" + v6(a6) + "]:" + i.getPort();
            }
            return (i.getAddress() != null ? i.getAddress().getHostAddress() : i.getHostString()) + ":" + i.getPort();
        }
        return String.valueOf(a);
    }

    /** An IPv6 address as Go prints it: hex groups, the longest run of two or more zero groups as "::", then "%zone". */
    private static String v6(Inet6Address a) {
        byte[] b = a.getAddress();
        int[] g = new int[8];
        for (int k = 0; k < 8; k++) {
            g[k] = (b[2 * k] & 0xff) << 8 | b[2 * k + 1] & 0xff;
        }
        int bestAt = -1;
        int bestLen = 1;
        for (int k = 0; k < 8; ) {
            int end = k;
            while (end < 8 && g[end] == 0) {
                end++;
            }
            if (end - k > bestLen) {
                bestAt = k;
                bestLen = end - k;
            }
            k = Math.max(end, k + 1);
        }
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < 8; k++) {
            if (k == bestAt) {
                sb.append("::");
                k += bestLen - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(g[k]));
        }
        if (a.getScopedInterface() != null) {
            sb.append('%').append(a.getScopedInterface().getName());
        } else if (a.getScopeId() != 0) {
            sb.append('%').append(a.getScopeId());
        }
        return sb.toString();
    }

    /** A dial to {@code address} failed. */
    static IOException dial(SocketAddress address, Throwable cause) {
        String op = "dial tcp " + hostPort(address);
        if (cause instanceof ConnectTimeoutException) {
            return (IOException) new DeadlineExceededException(op).initCause(cause);
        }
        Errno e = errno(cause, "connect");
        String m = op + ": " + e.syscall + ": " + e.text;
        if (e.syscall.equals("connect")) {
            return (IOException) (e.text.equals("no route to host") ? new NoRouteToHostException(m)
                    : new ConnectException(m)).initCause(cause);
        }
        return of(m, cause);
    }

    /** A listen on {@code address} failed. */
    static IOException listen(SocketAddress address, Throwable cause) {
        Errno e = errno(cause, "bind");
        String m = "listen tcp " + hostPort(address) + ": " + e.syscall + ": " + e.text;
        if (e.syscall.equals("bind")) {
            return (IOException) new BindException(m).initCause(cause);
        }
        return of(m, cause);
    }

    /** An accept on {@code listener} ({@code "tcp host:port"}) failed. */
    static IOException accept(String listener, Throwable cause) {
        Errno e = errno(cause, "accept4");
        return of("accept " + listener + ": " + e.syscall + ": " + e.text, cause);
    }

    /**
     * A connection's read or write failed: {@code op} is Go's {@code "read tcp local->remote"},
     * {@code syscall} the one to name when the cause does not ({@code read}, {@code write}).
     */
    static IOException conn(String op, String syscall, Throwable cause) {
        // Netty's message-less ClosedChannelException: the channel closed under the operation
        // (a reset, the loop's shutdown); this side's close is a NetClosedException instead.
        Errno e = cause instanceof java.nio.channels.ClosedChannelException && cause.getMessage() == null
                ? new Errno(syscall, "broken pipe") : errno(cause, syscall);
        return of(op + ": " + e.syscall + ": " + e.text, cause);
    }

    private static SocketException of(String message, Throwable cause) {
        SocketException s = new SocketException(message);
        s.initCause(cause);
        return s;
    }

    /** What failed, in Go's words: the syscall and the errno's text. */
    private record Errno(String syscall, String text) {
    }

    /**
     * The innermost cause with a message (Netty wraps its native exception in a
     * {@code ChannelException}, a reflective constructor's {@code InvocationTargetException},
     * an annotated {@code ConnectException} that appends the address), read as
     * {@code method(..) failed: Text} or as the JDK's bare {@code Text}.
     */
    private static Errno errno(Throwable cause, String defaultSyscall) {
        String message = null;
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable t = cause; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
            if (t.getMessage() != null && (t instanceof IOException || message == null)) {
                message = t.getMessage();
            }
            if (t instanceof Errors.NativeIoException) {
                break; // Netty's own, innermost
            }
        }
        if (message == null) {
            return new Errno(defaultSyscall, cause == null ? "unknown error" : cause.getClass().getName());
        }
        String syscall = defaultSyscall;
        String text = message;
        int failed = message.indexOf("(..) failed");
        if (failed > 0) {
            syscall = SYSCALLS.getOrDefault(message.substring(0, failed), defaultSyscall);
            int colon = message.indexOf(": ", failed);
            text = colon < 0 ? message : message.substring(colon + 2);
        }
        int annotation = text.indexOf(": ");
        if (annotation > 0) {
            text = text.substring(0, annotation); // Netty's ": /127.0.0.1:9" after the errno text
        }
        text = text.isEmpty() ? text : Character.toLowerCase(text.charAt(0)) + text.substring(1);
        if (text.equals("connection reset")) {
            text = "connection reset by peer"; // the JDK's text for ECONNRESET
        }
        return new Errno(syscall, text);
    }
}
