package io.gmp4j.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gmp4j.Tunable;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's Tunables table is {@link Tunable}'s list, row for row (property, default,
 * meaning), and {@code ./gmp4j config}'s printout ({@link Tunable#main}) has every property.
 */
class ReadmeTunablesTest {
    private static final Pattern ROW = Pattern.compile("^\\| `(gmp4j\\.[^`]+)` \\| (.*) \\| (.*) \\|$");

    @Test
    void theReadmeTableIsTheTunableList() throws IOException {
        String readme = Files.readString(readme());
        int start = readme.indexOf("\n## Tunables");
        int end = readme.indexOf("\n## ", start + 1);
        assertTrue(start >= 0 && end > start, "README.md has a Tunables section");
        List<String> rows = new ArrayList<>();
        for (String line : readme.substring(start, end).split("\n")) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                rows.add(m.group(1) + " | " + m.group(2) + " | " + m.group(3));
            }
        }
        List<String> expected = new ArrayList<>();
        for (Tunable t : Tunable.values()) {
            expected.add(t.property() + " | " + t.defaultValue() + " | " + t.meaning());
        }
        assertEquals(expected, rows, "README.md's Tunables rows against io.gmp4j.Tunable");
    }

    @Test
    void configPrintsEveryProperty() {
        PrintStream was = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            Tunable.main(new String[0]);
        } finally {
            System.setOut(was);
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        for (Tunable t : Tunable.values()) {
            assertTrue(out.contains("| `" + t.property() + "` |"), () -> t.property() + " missing from:\n" + out);
        }
    }

    private static Path readme() {
        for (Path p = Path.of(System.getProperty("user.dir")).toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("scheduler"))) {
                return p.resolve("README.md");
            }
        }
        throw new IllegalStateException("no README.md with a scheduler/ beside it");
    }
}
