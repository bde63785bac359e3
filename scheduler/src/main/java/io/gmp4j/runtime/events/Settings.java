package io.gmp4j.runtime.events;

import jdk.jfr.Configuration;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;

/**
 * The JFR settings files shipped with the scheduler (this package's resources):
 * {@value #DEFAULT} (the rare scheduler decisions on, the per-decision events off: cheap enough
 * to leave on) and {@value #PROFILE} (every event on, no threshold: a timeline of a short run).
 * {@code java -cp <scheduler jar> io.gmp4j.runtime.events.Settings gmp4j-profile > p.jfc} writes
 * one out for {@code -XX:StartFlightRecording:settings=default,settings=p.jfc}
 * (each settings file is a {@code settings=} option of its own; a bare path after the comma is
 * taken for an event option and ignored with a warning).
 */
public final class Settings {
    /** The defaults' name. */
    public static final String DEFAULT = "gmp4j";
    /** The profile's name. */
    public static final String PROFILE = "gmp4j-profile";

    private Settings() {
    }

    /**
     * The settings named {@code name} ({@value #DEFAULT} or {@value #PROFILE}), for
     * {@code new Recording(configuration)}.
     *
     * @throws IllegalArgumentException for another name
     */
    public static Configuration configuration(String name) throws IOException, ParseException {
        try (Reader r = new InputStreamReader(open(name), StandardCharsets.UTF_8)) {
            return Configuration.create(r);
        }
    }

    /** The text of the settings file named {@code name}. */
    public static String text(String name) throws IOException {
        try (InputStream in = open(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static InputStream open(String name) throws IOException {
        if (!name.equals(DEFAULT) && !name.equals(PROFILE)) {
            throw new IllegalArgumentException("no gmp4j JFR settings named '" + name + "' (known: " + DEFAULT + ", " + PROFILE + ")");
        }
        InputStream in = Settings.class.getResourceAsStream(name + ".jfc");
        if (in == null) {
            throw new IOException("the scheduler jar has no " + name + ".jfc next to " + Settings.class.getName());
        }
        return in;
    }

    /** Prints the settings file named by the argument ({@value #DEFAULT} if none) to standard output. */
    public static void main(String[] args) throws IOException {
        if (args.length > 1) {
            System.err.println("usage: Settings [" + DEFAULT + "|" + PROFILE + "]");
            System.exit(2);
        }
        try {
            System.out.print(text(args.length == 0 ? DEFAULT : args[0]));
        } catch (IllegalArgumentException e) {
            System.err.println("gmp4j: " + e.getMessage());
            System.exit(2);
        }
    }
}
