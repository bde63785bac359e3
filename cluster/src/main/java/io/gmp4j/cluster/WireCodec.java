package io.gmp4j.cluster;

import io.gmp4j.actor.ActorRef;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageCodec;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The types a {@link ClusterNode} may put on the wire, and gmp4j's binary format for them; Java
 * serialization is never used. Built in: {@code null}, the boxed primitives, {@link String},
 * {@code byte[]}, {@link List}, {@link Set} and {@link Map} of wire values, {@link ActorRef}s.
 * Records and enums travel once their type is registered ({@link #register(Class[])} or
 * {@link ClusterConfig.Builder#allow}); any other type with a codec of its own
 * ({@link #register(Class, Encoder, Decoder)}, or a Vert.x {@link MessageCodec}). Anything else
 * is refused at the sender with an {@link IllegalArgumentException}, before anything is sent.
 *
 * <p>The receiver resolves a type name only through this registry (never
 * {@code Class.forName} on wire input) and bounds every length and the nesting depth: input
 * naming an unregistered type, truncated, oversized or too deep is refused without creating
 * anything of an unregistered class. Every node that receives a type must register it too.
 * Registering a type again replaces its codec.
 *
 * <pre>{@code
 * record Say(String from, String text) {}
 * node.codecs().register(Say.class);
 * node.codecs().register(java.time.Instant.class,
 *         (t, out) -> out.appendLong(t.toEpochMilli()),
 *         in -> java.time.Instant.ofEpochMilli(in.getLong(0)));
 * }</pre>
 */
public final class WireCodec {
    /** The deepest nesting of lists, sets, maps and records accepted. */
    public static final int MAX_DEPTH = 64;
    /** The most bytes of one string, byte array or custom-coded value. */
    public static final int MAX_LENGTH = 16 << 20;
    /** The most elements of one list, set or map, and components of one record. */
    public static final int MAX_ELEMENTS = 1 << 20;

    // Tags of the format: one byte before every value.
    static final byte NULL = 0, TRUE = 1, FALSE = 2, BYTE = 3, SHORT = 4, CHAR = 5, INT = 6, LONG = 7,
            FLOAT = 8, DOUBLE = 9, STRING = 10, BYTES = 11, LIST = 12, SET = 13, MAP = 14, ENUM = 15,
            RECORD = 16, REF = 17, CUSTOM = 18;

    /** Writes a value of a type with its own codec. */
    @FunctionalInterface
    public interface Encoder<T> {
        /** Appends {@code value}'s bytes to {@code out}. */
        void encode(T value, Buffer out);
    }

    /** Reads a value of a type with its own codec. */
    @FunctionalInterface
    public interface Decoder<T> {
        /** Rebuilds the value from {@code in}, which holds exactly the bytes its encoder wrote. */
        T decode(Buffer in);
    }

    /** How references cross the wire: a local one is exported, a wire one resolved. */
    interface Refs {
        /** The node id this codec's node has. */
        String nodeId();

        /** The key under which the local {@code ref} can be reached from other nodes. */
        long export(ActorRef<?> ref);

        /** The reference for {@code (nodeId, key)}: the local ref if it is this node's. */
        ActorRef<?> resolve(String nodeId, long key, String name);
    }

    private sealed interface Kind permits RecordKind, EnumKind, CustomKind {
        Class<?> type();
    }

    private record RecordKind(Class<?> type, Method[] accessors, Constructor<?> ctor) implements Kind {
    }

    private record EnumKind(Class<?> type, Object[] constants) implements Kind {
    }

    private record CustomKind(Class<?> type, Encoder<Object> encoder, Decoder<Object> decoder) implements Kind {
    }

    private final Map<Class<?>, Kind> byClass = new ConcurrentHashMap<>();
    private final Map<String, Kind> byName = new ConcurrentHashMap<>();

    WireCodec() {
    }

    /**
     * Allows records and enums of these types, written as the type's name and then the record's
     * components in order (rebuilt through its canonical constructor) or the enum constant's name.
     *
     * @throws IllegalArgumentException for a type that is neither a record nor an enum
     */
    public WireCodec register(Class<?>... types) {
        for (Class<?> t : types) {
            if (t == null) {
                throw new IllegalArgumentException("register: null type");
            }
            if (t.isRecord()) {
                RecordComponent[] rc = t.getRecordComponents();
                Method[] acc = new Method[rc.length];
                Class<?>[] params = new Class<?>[rc.length];
                for (int i = 0; i < rc.length; i++) {
                    acc[i] = rc[i].getAccessor();
                    acc[i].setAccessible(true);
                    params[i] = rc[i].getType();
                }
                Constructor<?> ctor;
                try {
                    ctor = t.getDeclaredConstructor(params);
                } catch (NoSuchMethodException e) {
                    throw new IllegalArgumentException("register: record " + t.getName() + " has no canonical constructor", e);
                }
                ctor.setAccessible(true);
                put(new RecordKind(t, acc, ctor));
            } else if (t.isEnum()) {
                put(new EnumKind(t, t.getEnumConstants()));
            } else {
                throw new IllegalArgumentException("register: " + t.getName() + " is neither a record nor an enum;"
                        + " give it a codec with register(type, encoder, decoder)");
            }
        }
        return this;
    }

    /** Gives {@code type} (exactly that class, not its subclasses) a codec of its own. */
    @SuppressWarnings("unchecked")
    public <T> WireCodec register(Class<T> type, Encoder<? super T> encoder, Decoder<? extends T> decoder) {
        if (type == null || encoder == null || decoder == null) {
            throw new IllegalArgumentException("register: null type, encoder or decoder");
        }
        put(new CustomKind(type, (Encoder<Object>) encoder, (Decoder<Object>) decoder));
        return this;
    }

    /**
     * Gives {@code type} a Vert.x {@link MessageCodec} as its codec: its
     * {@code encodeToWire} writes the value, its {@code decodeFromWire(0, bytes)} reads it back.
     */
    public <T> WireCodec register(Class<T> type, MessageCodec<T, T> codec) {
        if (codec == null) {
            throw new IllegalArgumentException("register: null codec");
        }
        return register(type, (T v, Buffer out) -> codec.encodeToWire(out, v), in -> codec.decodeFromWire(0, in));
    }

    /** The types registered so far (records, enums and those with a codec of their own). */
    public Set<Class<?>> registeredTypes() {
        return Collections.unmodifiableSet(new LinkedHashSet<>(byClass.keySet()));
    }

    private void put(Kind k) {
        Kind old = byName.put(k.type().getName(), k);
        if (old != null && old.type() != k.type()) {
            byClass.remove(old.type()); // same name from another class loader: the newer wins
        }
        byClass.put(k.type(), k);
    }

    // =====================================================================================
    // Encoding: on the sender's thread, so that a refusal reaches the caller of tell.
    // =====================================================================================

    /** Appends {@code v} to {@code out}; refuses (IllegalArgumentException) what is not a wire value. */
    void encode(Object v, Buffer out, Refs refs) {
        write(v, out, refs, 0);
    }

    private void write(Object v, Buffer out, Refs refs, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("cannot send: values nested deeper than " + MAX_DEPTH);
        }
        switch (v) {
            case null -> out.appendByte(NULL);
            case Boolean b -> out.appendByte(b ? TRUE : FALSE);
            case Byte b -> out.appendByte(BYTE).appendByte(b);
            case Short s -> out.appendByte(SHORT).appendShort(s);
            case Character c -> out.appendByte(CHAR).appendUnsignedShort(c);
            case Integer i -> out.appendByte(INT).appendInt(i);
            case Long l -> out.appendByte(LONG).appendLong(l);
            case Float f -> out.appendByte(FLOAT).appendFloat(f);
            case Double d -> out.appendByte(DOUBLE).appendDouble(d);
            case String s -> writeBytes(out.appendByte(STRING), s.getBytes(StandardCharsets.UTF_8), "string");
            case byte[] a -> writeBytes(out.appendByte(BYTES), a, "byte[]");
            case RemoteRef<?> r -> writeRef(out, r.nodeId(), r.key(), r.name());
            case ActorRef<?> r -> writeRef(out, refs.nodeId(), refs.export(r), r.name());
            default -> writeOther(v, out, refs, depth);
        }
    }

    private void writeOther(Object v, Buffer out, Refs refs, int depth) {
        Class<?> c = v.getClass();
        Kind k = byClass.get(c);
        if (k == null && v instanceof Enum<?> e) {
            k = byClass.get(e.getDeclaringClass()); // a constant with a body has a subclass
        }
        if (k == null) {
            switch (v) {
                case List<?> l -> {
                    writeCount(out.appendByte(LIST), l.size());
                    for (Object o : l) {
                        write(o, out, refs, depth + 1);
                    }
                }
                case Set<?> s -> {
                    writeCount(out.appendByte(SET), s.size());
                    for (Object o : s) {
                        write(o, out, refs, depth + 1);
                    }
                }
                case Map<?, ?> m -> {
                    writeCount(out.appendByte(MAP), m.size());
                    for (Map.Entry<?, ?> en : m.entrySet()) {
                        write(en.getKey(), out, refs, depth + 1);
                        write(en.getValue(), out, refs, depth + 1);
                    }
                }
                default -> throw new IllegalArgumentException("cannot send a " + c.getName() + ": not a wire type;"
                        + " allow a record or enum with ClusterConfig.builder().allow(" + c.getSimpleName()
                        + ".class) or node.codecs().register(" + c.getSimpleName() + ".class), or give the type"
                        + " a codec with node.codecs().register(type, encoder, decoder)");
            }
            return;
        }
        switch (k) {
            case RecordKind r -> {
                writeName(out.appendByte(RECORD), r.type());
                writeCount(out, r.accessors().length);
                for (Method m : r.accessors()) {
                    Object comp;
                    try {
                        comp = m.invoke(v);
                    } catch (IllegalAccessException | InvocationTargetException e) {
                        throw new IllegalArgumentException("cannot send a " + c.getName() + ": reading " + m.getName() + " failed", e);
                    }
                    write(comp, out, refs, depth + 1);
                }
            }
            case EnumKind en -> {
                writeName(out.appendByte(ENUM), en.type());
                writeBytes(out, ((Enum<?>) v).name().getBytes(StandardCharsets.UTF_8), "enum name");
            }
            case CustomKind ck -> {
                writeName(out.appendByte(CUSTOM), ck.type());
                int lenAt = out.length();
                out.appendInt(0);
                ck.encoder().encode(v, out);
                int len = out.length() - lenAt - 4;
                if (len > MAX_LENGTH) {
                    throw new IllegalArgumentException("cannot send a " + c.getName() + ": its codec wrote " + len
                            + " bytes, more than " + MAX_LENGTH);
                }
                out.setInt(lenAt, len);
            }
        }
    }

    private static void writeRef(Buffer out, String nodeId, long key, String name) {
        out.appendByte(REF);
        writeBytes(out, nodeId.getBytes(StandardCharsets.UTF_8), "node id");
        out.appendLong(key);
        writeBytes(out, name.getBytes(StandardCharsets.UTF_8), "actor name");
    }

    private static void writeName(Buffer out, Class<?> type) {
        writeBytes(out, type.getName().getBytes(StandardCharsets.UTF_8), "type name");
    }

    private static void writeBytes(Buffer out, byte[] b, String what) {
        if (b.length > MAX_LENGTH) {
            throw new IllegalArgumentException("cannot send a " + what + " of " + b.length + " bytes: more than " + MAX_LENGTH);
        }
        out.appendInt(b.length).appendBytes(b);
    }

    private static void writeCount(Buffer out, int n) {
        if (n > MAX_ELEMENTS) {
            throw new IllegalArgumentException("cannot send " + n + " elements in one collection: more than " + MAX_ELEMENTS);
        }
        out.appendInt(n);
    }

    // =====================================================================================
    // Decoding: on a Vert.x event loop, from bytes anyone on the network may have written.
    // =====================================================================================

    /** Refused wire input: malformed, too big, too deep, or naming an unregistered type. */
    static final class WireFormatException extends RuntimeException {
        WireFormatException(String msg) {
            super(msg, null, false, false);
        }
    }

    /** Reads one value from {@code in} at {@code [from, to)}; the value must fill it exactly. */
    Object decode(Buffer in, int from, int to, Refs refs) {
        Reader r = new Reader(in, from, to);
        Object v = read(r, refs, 0);
        if (r.pos != to) {
            throw new WireFormatException((to - r.pos) + " bytes left after the value");
        }
        return v;
    }

    private static final class Reader {
        final Buffer in;
        int pos;
        final int limit;

        Reader(Buffer in, int pos, int limit) {
            this.in = in;
            this.pos = pos;
            this.limit = limit;
        }

        int take(int n) {
            if (n < 0 || limit - pos < n) {
                throw new WireFormatException("truncated input: " + n + " bytes needed at " + pos + ", " + (limit - pos) + " left");
            }
            int at = pos;
            pos += n;
            return at;
        }

        /** A length, bounded by {@code max} and by what is left of the input (each unit one byte at least). */
        int length(int max, String what) {
            int n = in.getInt(take(4));
            if (n < 0 || n > max) {
                throw new WireFormatException(what + " of length " + n + " out of bounds 0.." + max);
            }
            if (n > limit - pos) {
                throw new WireFormatException("truncated input: " + what + " of length " + n + ", " + (limit - pos) + " bytes left");
            }
            return n;
        }

        String string(String what) {
            int n = length(MAX_LENGTH, what);
            return in.getString(take(n), pos, "UTF-8");
        }
    }

    private Object read(Reader r, Refs refs, int depth) {
        if (depth > MAX_DEPTH) {
            throw new WireFormatException("values nested deeper than " + MAX_DEPTH);
        }
        byte tag = r.in.getByte(r.take(1));
        return switch (tag) {
            case NULL -> null;
            case TRUE -> Boolean.TRUE;
            case FALSE -> Boolean.FALSE;
            case BYTE -> r.in.getByte(r.take(1));
            case SHORT -> r.in.getShort(r.take(2));
            case CHAR -> (char) r.in.getUnsignedShort(r.take(2));
            case INT -> r.in.getInt(r.take(4));
            case LONG -> r.in.getLong(r.take(8));
            case FLOAT -> r.in.getFloat(r.take(4));
            case DOUBLE -> r.in.getDouble(r.take(8));
            case STRING -> r.string("string");
            case BYTES -> {
                int n = r.length(MAX_LENGTH, "byte[]");
                yield r.in.getBytes(r.take(n), r.pos);
            }
            case LIST -> {
                int n = r.length(MAX_ELEMENTS, "list");
                List<Object> l = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    l.add(read(r, refs, depth + 1));
                }
                yield l;
            }
            case SET -> {
                int n = r.length(MAX_ELEMENTS, "set");
                Set<Object> s = new LinkedHashSet<>();
                for (int i = 0; i < n; i++) {
                    s.add(read(r, refs, depth + 1));
                }
                yield s;
            }
            case MAP -> {
                int n = r.length(MAX_ELEMENTS, "map");
                Map<Object, Object> m = new LinkedHashMap<>();
                for (int i = 0; i < n; i++) {
                    Object k = read(r, refs, depth + 1);
                    m.put(k, read(r, refs, depth + 1));
                }
                yield m;
            }
            case ENUM -> readEnum(r);
            case RECORD -> readRecord(r, refs, depth);
            case REF -> {
                String nodeId = r.string("node id");
                long key = r.in.getLong(r.take(8));
                String name = r.string("actor name");
                yield refs.resolve(nodeId, key, name);
            }
            case CUSTOM -> readCustom(r);
            default -> throw new WireFormatException("unknown tag " + tag + " at " + (r.pos - 1));
        };
    }

    /** The registered kind named {@code name}: the registry is the only way from a name to a class. */
    private <K extends Kind> K kind(String name, Class<K> expected, String what) {
        Kind k = byName.get(name);
        if (!expected.isInstance(k)) {
            throw new WireFormatException(what + " type '" + name + "' is not registered on this node");
        }
        return expected.cast(k);
    }

    private Object readEnum(Reader r) {
        EnumKind k = kind(r.string("type name"), EnumKind.class, "enum");
        String constant = r.string("enum name");
        for (Object c : k.constants()) {
            if (((Enum<?>) c).name().equals(constant)) {
                return c;
            }
        }
        throw new WireFormatException("enum " + k.type().getName() + " has no constant '" + constant + "'");
    }

    private Object readRecord(Reader r, Refs refs, int depth) {
        RecordKind k = kind(r.string("type name"), RecordKind.class, "record");
        int n = r.length(MAX_ELEMENTS, "record");
        if (n != k.accessors().length) {
            throw new WireFormatException("record " + k.type().getName() + " has " + k.accessors().length
                    + " components, the input " + n);
        }
        Object[] args = new Object[n];
        for (int i = 0; i < n; i++) {
            args[i] = read(r, refs, depth + 1);
        }
        try {
            return k.ctor().newInstance(args);
        } catch (IllegalArgumentException e) {
            throw new WireFormatException("record " + k.type().getName() + ": components of the wrong types: " + e.getMessage());
        } catch (InvocationTargetException e) {
            throw new WireFormatException("record " + k.type().getName() + " refused its components: " + e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new WireFormatException("record " + k.type().getName() + " cannot be built: " + e);
        }
    }

    private Object readCustom(Reader r) {
        CustomKind k = kind(r.string("type name"), CustomKind.class, "custom-coded");
        int n = r.length(MAX_LENGTH, "custom value");
        int at = r.take(n);
        Object v;
        try {
            v = k.decoder().decode(r.in.slice(at, at + n));
        } catch (RuntimeException e) {
            throw new WireFormatException("the codec of " + k.type().getName() + " failed: " + e);
        }
        if (v != null && !k.type().isInstance(v)) {
            throw new WireFormatException("the codec of " + k.type().getName() + " returned a " + v.getClass().getName());
        }
        return v;
    }
}
