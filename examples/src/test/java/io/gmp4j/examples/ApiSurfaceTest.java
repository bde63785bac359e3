package io.gmp4j.examples;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The API packages name no internal type: no public or protected member of a public type in
 * {@code io.gmp4j}, {@code io.gmp4j.chan}, {@code .net}, {@code .actor} and the other user
 * packages takes, returns, throws, extends or exposes a type of {@code io.gmp4j.runtime} (the
 * runtime's internals and its SPI for gmp4j's own modules). What users write compiles against
 * the API alone, and the internals can change without breaking it.
 */
class ApiSurfaceTest {
    /** The packages users import; each listed with the module (artifact) that ships it. */
    static final List<String> API_PACKAGES = List.of(
            "io.gmp4j", "io.gmp4j.chan", "io.gmp4j.time", "io.gmp4j.sync", "io.gmp4j.context",
            "io.gmp4j.reactive", "io.gmp4j.net", "io.gmp4j.actor", "io.gmp4j.cluster",
            "io.gmp4j.vertx", "io.gmp4j.test", "io.gmp4j.micrometer");

    static final String INTERNAL = "io.gmp4j.runtime";

    @Test
    void apiMembersNameNoRuntimeType() throws Exception {
        List<String> leaks = new ArrayList<>();
        int types = 0;
        for (String pkg : API_PACKAGES) {
            for (Class<?> c : publicTypes(pkg)) {
                types++;
                leaks.addAll(leaksOf(c));
            }
        }
        assertTrue(types > 40, () -> "found only the API types it found; the scan is broken");
        assertEquals(List.of(), leaks, "API members that name io.gmp4j.runtime types");
    }

    /** The check sees a leak: a type of this test whose public method returns an internal type. */
    @Test
    void theCheckSeesALeak() {
        assertEquals(List.of("io.gmp4j.examples.ApiSurfaceTest$Leaky.scheduler(): returns io.gmp4j.runtime.Scheduler"),
                leaksOf(Leaky.class));
    }

    /** A deliberately broken API type: {@link #theCheckSeesALeak} needs one. */
    public static final class Leaky {
        /** Leaks the runtime's scheduler. */
        public io.gmp4j.runtime.Scheduler scheduler() {
            return null;
        }
    }

    static List<String> leaksOf(Class<?> c) {
        List<String> out = new ArrayList<>();
        String owner = c.getName();
        check(out, owner + " extends", c.getGenericSuperclass());
        for (Type t : c.getGenericInterfaces()) {
            check(out, owner + " implements", t);
        }
        if (c.isRecord()) {
            for (RecordComponent rc : c.getRecordComponents()) {
                check(out, owner + " component " + rc.getName(), rc.getGenericType());
            }
        }
        for (Field f : c.getDeclaredFields()) {
            if (visible(f.getModifiers())) {
                check(out, owner + "." + f.getName(), f.getGenericType());
            }
        }
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            if (visible(k.getModifiers())) {
                executable(out, owner + ".<init>", k);
            }
        }
        for (Method m : c.getDeclaredMethods()) {
            if (visible(m.getModifiers()) && !m.isSynthetic() && !m.isBridge()) {
                String where = owner + "." + m.getName() + "()";
                check(out, where + ": returns", m.getGenericReturnType());
                executable(out, where, m);
            }
        }
        return out;
    }

    private static void executable(List<String> out, String where, Executable e) {
        for (Type p : e.getGenericParameterTypes()) {
            check(out, where + ": takes", p);
        }
        for (Type x : e.getGenericExceptionTypes()) {
            check(out, where + ": throws", x);
        }
    }

    private static boolean visible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static void check(List<String> out, String where, Type t) {
        TreeSet<String> found = new TreeSet<>();
        collect(t, found, 0);
        for (String name : found) {
            out.add(where + " " + name);
        }
    }

    private static void collect(Type t, TreeSet<String> found, int depth) {
        if (t == null || depth > 8) {
            return;
        }
        switch (t) {
            case Class<?> k -> {
                Class<?> base = k;
                while (base.isArray()) {
                    base = base.getComponentType();
                }
                if (base.getPackageName().equals(INTERNAL) || base.getPackageName().startsWith(INTERNAL + ".")) {
                    found.add(base.getName());
                }
            }
            case ParameterizedType p -> {
                collect(p.getRawType(), found, depth + 1);
                for (Type a : p.getActualTypeArguments()) {
                    collect(a, found, depth + 1);
                }
            }
            case GenericArrayType g -> collect(g.getGenericComponentType(), found, depth + 1);
            case WildcardType w -> {
                for (Type b : w.getUpperBounds()) {
                    collect(b, found, depth + 1);
                }
                for (Type b : w.getLowerBounds()) {
                    collect(b, found, depth + 1);
                }
            }
            case TypeVariable<?> v -> {
                for (Type b : v.getBounds()) {
                    collect(b, found, depth + 1);
                }
            }
            default -> {
            }
        }
    }

    /** The public types, nested ones included, of {@code pkg} as the class path holds it. */
    static List<Class<?>> publicTypes(String pkg) throws IOException, URISyntaxException, ClassNotFoundException {
        String dir = pkg.replace('.', '/');
        TreeSet<String> names = new TreeSet<>();
        Enumeration<URL> roots = ApiSurfaceTest.class.getClassLoader().getResources(dir);
        for (URL root : Collections.list(roots)) {
            if (root.getProtocol().equals("jar")) {
                JarURLConnection conn = (JarURLConnection) root.openConnection();
                try (JarFile jar = conn.getJarFile()) {
                    for (JarEntry e : Collections.list(jar.entries())) {
                        String n = e.getName();
                        if (n.startsWith(dir + "/") && n.endsWith(".class") && n.indexOf('/', dir.length() + 1) < 0) {
                            names.add(n.substring(0, n.length() - ".class".length()).replace('/', '.'));
                        }
                    }
                }
            } else {
                try (Stream<Path> files = Files.list(Path.of(root.toURI()))) {
                    files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".class"))
                            .forEach(n -> names.add(pkg + "." + n.substring(0, n.length() - ".class".length())));
                }
            }
        }
        List<Class<?>> out = new ArrayList<>();
        for (String n : names) {
            if (n.endsWith("package-info") || n.endsWith("module-info")) {
                continue;
            }
            Class<?> c = Class.forName(n, false, ApiSurfaceTest.class.getClassLoader());
            if (isApi(c)) {
                out.add(c);
            }
        }
        return out;
    }

    /** Public, and every enclosing type public too: reachable by users. */
    private static boolean isApi(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
            if (!Modifier.isPublic(k.getModifiers())) {
                return false;
            }
        }
        return !c.isAnonymousClass() && !c.isLocalClass() && !c.isSynthetic();
    }
}
