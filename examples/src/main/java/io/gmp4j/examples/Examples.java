package io.gmp4j.examples;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The entry point of {@code ./gmp4j run <example> [args]}: looks the example up by name and
 * runs it; with no name, lists them.
 */
public final class Examples {
    private record Example(String summary, Consumer<String[]> main) {
    }

    private static final Map<String, Example> EXAMPLES = new LinkedHashMap<>();

    static {
        EXAMPLES.put("chat", new Example(
                "the main example: a chat server with nicknames and rooms on 127.0.0.1:7000 (connect with nc)",
                io.gmp4j.examples.chat.ChatDemo::main));
        EXAMPLES.put("sched", new Example(
                "exercises the GMP scheduler (fan-out, ping-pong, a blocking syscall) and prints Go's schedtrace",
                SchedDemo::main));
        EXAMPLES.put("pipeline", new Example(
                "Go's pipelines: fan-out/fan-in with context cancellation, and a bounded-parallelism SHA-256 of a tree",
                io.gmp4j.examples.pipeline.PipelineDemo::main));
        EXAMPLES.put("proxy", new Example(
                "a TCP proxy: --listen host:port --upstream host:port[,...] (round-robin, failover, limits, stats)",
                io.gmp4j.examples.proxy.ProxyDemo::main));
        // Go programs ported line by line (io.gmp4j.examples.ports): one entry each, named as Go names them
        EXAMPLES.put("sieve", new Example(
                "Go port: the concurrent prime sieve (doc/play/sieve.go), a goroutine per prime; -n N",
                io.gmp4j.examples.ports.Sieve::main));
        EXAMPLES.put("urlpoll", new Example(
                "Go port: the 'Share Memory By Communicating' URL poller (codewalk sharemem) with HTTP HEAD",
                io.gmp4j.examples.ports.UrlPoll::main));
        EXAMPLES.put("bank", new Example(
                "Go port: a bank account owned by one teller goroutine (gopl.io bank1 + exercise 9.1)",
                io.gmp4j.examples.ports.Bank::main));
        EXAMPLES.put("philosophers", new Example(
                "Go port: the dining philosophers with mutex chopsticks and a host limiting the diners",
                io.gmp4j.examples.ports.Philosophers::main));
    }

    private Examples() {
    }

    public static void main(String[] args) {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
            System.out.println("usage: ./gmp4j run <example> [args]\n\nexamples:");
            EXAMPLES.forEach((name, e) -> System.out.printf("  %-13s %s%n", name, e.summary()));
            return;
        }
        Example e = EXAMPLES.get(args[0]);
        if (e == null) {
            System.err.println("unknown example '" + args[0] + "'; known: " + String.join(", ", EXAMPLES.keySet()));
            System.exit(2);
        }
        String[] rest = new String[args.length - 1];
        System.arraycopy(args, 1, rest, 0, rest.length);
        e.main().accept(rest);
    }
}
