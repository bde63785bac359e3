package io.gmp4j.examples;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Every README.md of the repository (the root's, each module's, and any other outside build
 * output and hidden folders) keeps its promises: every fenced {@code ```java} block compiles
 * against the library (scheduler, channels, netpoll, actors, cluster, vertx, test and micrometer
 * are all on this module's test classpath), and every relative link names a file or folder that
 * exists, and, where it points into a Markdown file with {@code #anchor}, a heading of that file
 * (GitHub's anchors: the heading's text in lower case, punctuation dropped, spaces as hyphens).
 * A failure names the README, by its path from the repository's root, and the line.
 *
 * <p>A README snippet is a fragment; this test turns each into a compilation unit by one rule,
 * decided by the block's lines that start at column 0 (not indented):
 * <ol>
 *   <li><b>A whole compilation unit</b>: the block starts with {@code package}, or every column-0
 *       line after its leading {@code import}s begins a type declaration ({@code class},
 *       {@code record}, {@code interface}, {@code enum}, with modifiers or annotations), a closing
 *       brace or a comment. It compiles as written.</li>
 *   <li><b>Class members</b>: some column-0 line declares a method (modifiers, a return type,
 *       a name and a parameter list, ending in the body's opening brace). The block's leading
 *       {@code import} lines stay imports; the rest becomes the body of a class.</li>
 *   <li><b>Statements</b>: anything else. The block's leading {@code import} lines stay imports;
 *       the rest becomes the body of {@code void snippet() throws Exception} in a class (local
 *       records and classes are statements too).</li>
 * </ol>
 * Forms 2 and 3 also get {@code import static io.gmp4j.Go.*;} and on-demand imports of every
 * gmp4j package ({@code io.gmp4j}, {@code .runtime}, {@code .chan}, {@code .time}, {@code .sync},
 * {@code .context}, {@code .reactive}, {@code .net}, {@code .actor}, {@code .cluster}) and of
 * {@code java.util}, {@code java.time} and {@code java.io}, with {@code io.gmp4j.time.Timer}
 * imported by name (it wins over {@code java.util.Timer}). So a snippet names everything else it
 * uses: a free variable is a compile error, and a block that cannot compile must not be a
 * {@code java} block. Each README's blocks compile in a package of their own (unless a block
 * declares one), so two READMEs may each show a {@code class PipelineTest}. Blocks fenced as
 * anything else ({@code sh}, {@code xml}, {@code text}, none) are not compiled: command lines
 * (agent/README.md's and benchmarks/README.md's are fenced without a language) and poms (the
 * root README's is built by {@code ./gmp4j sample}). Every Java block of every README compiles;
 * none is fenced as text to escape this test.
 */
class ReadmeCompilesTest {
    private static final Pattern FENCE = Pattern.compile("^```\\s*([\\w+-]*).*$");
    private static final Pattern IMPORT = Pattern.compile("^import\\s+(static\\s+)?[\\w.]+(\\.\\*)?\\s*;\\s*$");
    private static final Pattern TYPE_DECL = Pattern.compile(
            "^(@\\w+(\\([^)]*\\))?\\s+)*((public|protected|private|abstract|static|final|sealed|non-sealed|strictfp)\\s+)*"
                    + "(class|record|interface|enum|@interface)\\s+\\w+.*");
    private static final Pattern METHOD_DECL = Pattern.compile(
            "^((public|protected|private|static|final|abstract|synchronized|default|native)\\s+)*"
                    + "(<[^>]+>\\s+)?[\\w.]+(<.*>)?(\\[\\])*\\s+(\\w+)\\s*\\(.*\\)\\s*(throws\\s+[\\w.,\\s]+)?\\{.*$");
    private static final List<String> NOT_A_TYPE = List.of(
            "return", "new", "else", "throw", "case", "yield", "assert", "do", "if", "for", "while", "switch", "try",
            "catch", "synchronized", "record", "class", "interface", "enum");
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "^(public\\s+)((abstract|final|sealed|non-sealed|strictfp)\\s+)*(class|record|interface|enum)\\s+(\\w+).*");
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*)$");
    private static final String PRELUDE = """
            import static io.gmp4j.Go.*;
            import io.gmp4j.*;
            import io.gmp4j.runtime.*;
            import io.gmp4j.chan.*;
            import io.gmp4j.time.*;
            import io.gmp4j.time.Timer;
            import io.gmp4j.sync.*;
            import io.gmp4j.context.*;
            import io.gmp4j.reactive.*;
            import io.gmp4j.net.*;
            import io.gmp4j.actor.*;
            import io.gmp4j.cluster.*;
            import java.util.*;
            import java.time.*;
            import java.io.*;
            """;

    /** A fenced java block: the README it is in (its path from the root), its code lines and the line number of the first. */
    record Block(String readme, int firstLine, List<String> lines) {
    }

    /** A generated source whose every line remembers the README line it came from (0: generated). */
    static final class Source extends SimpleJavaFileObject {
        final Block block;
        final String kind;
        final List<String> text = new ArrayList<>();
        final List<Integer> readmeLine = new ArrayList<>();

        Source(String pkg, String className, Block block, String kind) {
            super(URI.create("string:///" + pkg.replace('.', '/') + "/" + className + Kind.SOURCE.extension),
                    Kind.SOURCE);
            this.block = block;
            this.kind = kind;
        }

        void add(String line, int fromReadme) {
            for (String l : line.split("\n", -1)) {
                text.add(l);
                readmeLine.add(fromReadme);
            }
        }

        int readmeLineOf(long javacLine) {
            int i = (int) javacLine - 1;
            if (i >= 0 && i < readmeLine.size() && readmeLine.get(i) > 0) {
                return readmeLine.get(i);
            }
            return block.firstLine();
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return String.join("\n", text) + "\n";
        }
    }

    static Path repoRoot() {
        Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("scheduler"))) {
                return p;
            }
        }
        throw new IllegalStateException("no README.md with a scheduler/ beside it above " + dir);
    }

    /**
     * Every README.md under the root, the root's first, then by path; folders named
     * {@code target} or {@code node_modules}, and hidden ones, are not searched.
     */
    static List<Path> readmes(Path root) throws IOException {
        List<Path> found = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                boolean skip = !dir.equals(root)
                        && (name.startsWith(".") || name.equals("target") || name.equals("node_modules"));
                return skip ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (file.getFileName().toString().equals("README.md")) {
                    found.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        found.sort((a, b) -> a.equals(root.resolve("README.md")) ? -1
                : b.equals(root.resolve("README.md")) ? 1 : name(root, a).compareTo(name(root, b)));
        return found;
    }

    /** A README's name in messages: its path from the root, with forward slashes. */
    static String name(Path root, Path readme) {
        return root.relativize(readme).toString().replace('\\', '/');
    }

    static List<Block> javaBlocks(String readme, List<String> text) {
        List<Block> blocks = new ArrayList<>();
        boolean inFence = false;
        boolean java = false;
        int start = 0;
        List<String> lines = null;
        for (int i = 0; i < text.size(); i++) {
            String line = text.get(i);
            Matcher m = FENCE.matcher(line);
            if (!inFence && m.matches()) {
                inFence = true;
                java = m.group(1).toLowerCase(Locale.ROOT).equals("java");
                start = i + 2;
                lines = new ArrayList<>();
            } else if (inFence && line.startsWith("```")) {
                inFence = false;
                if (java) {
                    blocks.add(new Block(readme, start, lines));
                }
            } else if (inFence) {
                lines.add(line);
            }
        }
        if (inFence) {
            throw new AssertionError(readme + " line " + (start - 1) + ": a fence that is never closed");
        }
        return blocks;
    }

    static boolean isTypeDecl(String line) {
        return TYPE_DECL.matcher(line).matches();
    }

    static boolean isMethodDecl(String line) {
        Matcher m = METHOD_DECL.matcher(line);
        if (!m.matches()) {
            return false;
        }
        String first = line.trim().split("[\\s(<]", 2)[0];
        return !NOT_A_TYPE.contains(first) && !NOT_A_TYPE.contains(m.group(6));
    }

    static boolean atColumn0(String line) {
        return !line.isBlank() && !Character.isWhitespace(line.charAt(0));
    }

    /**
     * Turns one block into a compilation unit by the rule in the class comment, in package
     * {@code pkg} unless the block declares its own.
     */
    static Source wrap(Block b, int index, String pkg) {
        List<String> lines = b.lines();
        int body = 0;
        while (body < lines.size() && (lines.get(body).isBlank() || IMPORT.matcher(lines.get(body)).matches())) {
            body++;
        }
        boolean declaresPackage = lines.stream().filter(l -> !l.isBlank()).findFirst().orElse("").startsWith("package ");
        boolean unit = declaresPackage;
        if (!unit) {
            boolean anyType = false;
            boolean onlyTypes = true;
            for (String l : lines.subList(body, lines.size())) {
                if (!atColumn0(l) || l.startsWith("}") || l.startsWith("//") || l.startsWith("/*") || l.startsWith("*")) {
                    continue;
                }
                if (isTypeDecl(l) || l.startsWith("@")) {
                    anyType |= isTypeDecl(l);
                } else {
                    onlyTypes = false;
                }
            }
            unit = anyType && onlyTypes;
        }
        if (unit) {
            String name = "ReadmeUnit" + index;
            for (String l : lines) {
                Matcher m = PUBLIC_TYPE.matcher(l);
                if (m.matches()) {
                    name = m.group(5);
                    break;
                }
            }
            Source s = new Source(pkg, name, b, "a compilation unit");
            if (!declaresPackage) {
                s.add("package " + pkg + ";", 0);
            }
            for (int i = 0; i < lines.size(); i++) {
                s.add(lines.get(i), b.firstLine() + i);
            }
            return s;
        }
        boolean members = lines.subList(body, lines.size()).stream()
                .anyMatch(l -> atColumn0(l) && isMethodDecl(l));
        String name = "ReadmeSnippet" + index;
        Source s = new Source(pkg, name, b, members ? "class members" : "statements");
        s.add("package " + pkg + ";", 0);
        s.add(PRELUDE.strip(), 0);
        for (int i = 0; i < body; i++) {
            s.add(lines.get(i), b.firstLine() + i);
        }
        s.add("final class " + name + " {", 0);
        if (!members) {
            s.add("void snippet() throws Exception {", 0);
        }
        for (int i = body; i < lines.size(); i++) {
            s.add(lines.get(i), b.firstLine() + i);
        }
        if (!members) {
            s.add("}", 0);
        }
        s.add("}", 0);
        return s;
    }

    /** Class files go to memory and are dropped: only the diagnostics matter. */
    static final class DiscardingFileManager extends ForwardingJavaFileManager<StandardJavaFileManager> {
        DiscardingFileManager(StandardJavaFileManager m) {
            super(m);
        }

        @Override
        public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind,
                FileObject sibling) {
            return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + kind.extension), kind) {
                @Override
                public OutputStream openOutputStream() {
                    return new ByteArrayOutputStream();
                }
            };
        }
    }

    @Test
    void theSearchFindsTheRootAndTheModulesReadmes() throws IOException {
        Path root = repoRoot();
        List<String> names = readmes(root).stream().map(r -> name(root, r)).toList();
        assertEquals("README.md", names.getFirst(), "the root README comes first: " + names);
        for (String module : List.of("scheduler", "channels", "netpoll", "actors", "cluster", "vertx", "test",
                "examples", "agent", "benchmarks")) {
            assertTrue(names.contains(module + "/README.md"), module + "/README.md not found among " + names);
        }
        assertTrue(names.stream().noneMatch(n -> n.contains("target/")), "build output searched: " + names);
    }

    @Test
    void everyJavaBlockCompiles() throws IOException {
        Path root = repoRoot();
        List<Path> readmes = readmes(root);
        List<Source> sources = new ArrayList<>();
        for (int r = 0; r < readmes.size(); r++) {
            String readme = name(root, readmes.get(r));
            List<Block> blocks = javaBlocks(readme, Files.readAllLines(readmes.get(r)));
            for (Block b : blocks) {
                sources.add(wrap(b, sources.size(), "readme" + r));
            }
        }
        assertFalse(sources.isEmpty(), readmes.size() + " READMEs and no ```java block: nothing to check");
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "no system Java compiler: run the tests on a JDK");
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (var files = new DiscardingFileManager(javac.getStandardFileManager(diagnostics, Locale.ROOT, null))) {
            Boolean ok = javac.getTask(null, files, diagnostics,
                    List.of("-classpath", classpath, "-proc:none", "-implicit:none", "-Xlint:none"),
                    null, sources).call();
            StringBuilder errors = new StringBuilder();
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                if (d.getKind() != Diagnostic.Kind.ERROR) {
                    continue;
                }
                if (d.getSource() instanceof Source s) {
                    errors.append(s.block.readme()).append(" line ").append(s.readmeLineOf(d.getLineNumber()))
                            .append(" (block at line ").append(s.block.firstLine()).append(", compiled as ")
                            .append(s.kind).append("): ").append(d.getMessage(Locale.ROOT)).append('\n');
                } else {
                    errors.append(d.getMessage(Locale.ROOT)).append('\n');
                }
            }
            assertTrue(ok && errors.isEmpty(), sources.size() + " java blocks in " + readmes.size()
                    + " READMEs; these do not compile:\n" + errors);
        }
    }

    @Test
    void theWrappingRuleTellsTheThreeFormsApart() {
        Block unit = new Block("README.md", 10,
                List.of("import java.util.List;", "", "public record Point(int x, int y) {", "}"));
        Block members = new Block("README.md", 20, List.of("import static io.gmp4j.Go.*;", "",
                "public static void main(String[] args) {", "    Go.main(() -> {});", "}"));
        Block statements = new Block("README.md", 30, List.of("record Get(int n) {}",
                "try (var x = new StringWriter()) {", "    x.write(1);", "}", "for (int i = 0; i < 3; i++) {", "}"));
        assertEquals("a compilation unit", wrap(unit, 0, "readme0").kind);
        assertEquals("/readme0/Point.java", wrap(unit, 0, "readme0").getName());
        assertEquals("package readme0;", wrap(unit, 0, "readme0").text.getFirst());
        assertEquals("class members", wrap(members, 1, "readme0").kind);
        Source s = wrap(statements, 2, "readme0");
        assertEquals("statements", s.kind);
        int snippetLine = s.text.indexOf("void snippet() throws Exception {");
        assertTrue(snippetLine > 0, s.getCharContent(false).toString());
        assertEquals(30, s.readmeLineOf(snippetLine + 2), "the first statement maps to the block's first line");
        assertEquals(31, s.readmeLineOf(snippetLine + 3));
    }

    /**
     * GitHub's anchor of a heading: its text as rendered (a link's text, not its target; no
     * closing hashes), in lower case, every character but letters, digits, marks, underscores,
     * hyphens and spaces dropped, each space a hyphen.
     */
    static String anchor(String headingText) {
        String text = headingText.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replaceFirst("\\s+#+\\s*$", "");
        return text.strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\p{M}\\p{Pc} -]", "").replace(' ', '-');
    }

    /** The anchors of a Markdown file's headings, a repeated one also with GitHub's {@code -1}, {@code -2}, ... */
    static Set<String> anchors(List<String> markdown) {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean inFence = false;
        for (String line : markdown) {
            if (line.startsWith("```")) {
                inFence = !inFence;
            }
            Matcher m = HEADING.matcher(line);
            if (!inFence && m.matches()) {
                String a = anchor(m.group(1));
                int n = seen.merge(a, 1, Integer::sum) - 1;
                anchors.add(n == 0 ? a : a + "-" + n);
            }
        }
        return anchors;
    }

    @Test
    void anchorsAreGitHubs() {
        assertEquals("go--java", anchor("Go → Java"));
        assertEquals("gotest-a-test-as-the-main-goroutine-of-a-fresh-runtime",
                anchor("`@GoTest`: a test as the main goroutine of a fresh runtime"));
        assertEquals("2026-12-03-evening-what-the-schedulers-events-cost-issue-26",
                anchor("2026-12-03 evening: what the scheduler's events cost (issue 26) ##"));
        assertEquals(Set.of("metrics", "metrics-1", "system-properties"),
                anchors(List.of("## Metrics", "```sh", "# not a heading", "```", "### Metrics", "## System properties")));
    }

    @Test
    void everyRelativeLinkExists() throws IOException {
        Path root = repoRoot();
        List<Path> readmes = readmes(root);
        StringBuilder broken = new StringBuilder();
        int links = 0;
        for (Path readmeFile : readmes) {
            String readme = name(root, readmeFile);
            List<String> text = Files.readAllLines(readmeFile);
            boolean inFence = false;
            for (int i = 0; i < text.size(); i++) {
                String line = text.get(i);
                if (line.startsWith("```")) {
                    inFence = !inFence;
                    continue;
                }
                if (inFence) {
                    continue;
                }
                Matcher m = LINK.matcher(line);
                while (m.find()) {
                    String target = m.group(1);
                    if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
                        continue;
                    }
                    links++;
                    String path = target.replaceFirst("#.*$", "");
                    String fragment = target.contains("#") ? target.substring(target.indexOf('#') + 1) : "";
                    Path to = path.isEmpty() ? readmeFile : readmeFile.getParent().resolve(path).normalize();
                    if (!Files.exists(to)) {
                        broken.append(readme).append(" line ").append(i + 1).append(": ").append(target)
                                .append(" (no such file or folder)\n");
                    } else if (!fragment.isEmpty() && to.toString().endsWith(".md")
                            && !anchors(Files.readAllLines(to)).contains(fragment)) {
                        broken.append(readme).append(" line ").append(i + 1).append(": ").append(target)
                                .append(" (no heading of ").append(name(root, to)).append(" has that anchor)\n");
                    }
                }
            }
        }
        assertTrue(links > 0, readmes.size() + " READMEs and no relative link: nothing to check");
        assertTrue(broken.isEmpty(), "links to nothing:\n" + broken);
    }
}
