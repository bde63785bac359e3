package io.gmp4j.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gmp4j.actor.ActorRef;
import io.gmp4j.actor.ActorSystem;
import io.gmp4j.actor.Behavior;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageCodec;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WireCodecTest {
    enum Color { RED, GREEN { @Override public String toString() { return "g"; } } }

    record Point(int x, long y, double z, Color c) {
    }

    record Nested(String name, List<Point> points, Map<String, Object> extra, byte[] blob, ActorRef<String> ref) {
    }

    record Positive(int n) {
        Positive {
            if (n <= 0) {
                throw new IllegalArgumentException("n must be positive");
            }
        }
    }

    record Unregistered(int n) {
    }

    /** Refs of a node "here": an exported ref resolves back to itself, others to RemoteRefs. */
    static final class TestRefs implements WireCodec.Refs {
        final Map<Long, ActorRef<?>> byKey = new HashMap<>();
        final Map<ActorRef<?>, Long> byRef = new HashMap<>();

        @Override
        public String nodeId() {
            return "here";
        }

        @Override
        public long export(ActorRef<?> ref) {
            return byRef.computeIfAbsent(ref, r -> {
                long k = byKey.size() + 1;
                byKey.put(k, r);
                return k;
            });
        }

        @Override
        public ActorRef<?> resolve(String nodeId, long key, String name) {
            return nodeId.equals("here") ? byKey.get(key) : new RemoteRef<>(null, nodeId, key, name);
        }
    }

    private final WireCodec codec = new WireCodec().register(Color.class, Point.class, Nested.class, Positive.class);
    private final TestRefs refs = new TestRefs();

    private Buffer encode(Object v) {
        Buffer b = Buffer.buffer();
        codec.encode(v, b, refs);
        return b;
    }

    private Object decode(Buffer b) {
        return codec.decode(b, 0, b.length(), refs);
    }

    private Object roundTrip(Object v) {
        return decode(encode(v));
    }

    @Test
    void everyBuiltInKindRoundTrips() {
        List<Object> values = List.of(true, false, (byte) -7, (short) 1234, 'é', Integer.MIN_VALUE, Long.MAX_VALUE,
                1.5f, Math.PI, "", "héllo, wörld ✓ \uD83D\uDE00", List.of(), List.of(1, "two", 3L),
                new LinkedHashSet<>(List.of("a", "b", "c")), new LinkedHashMap<>(Map.of("k", List.of(1, 2))));
        for (Object v : values) {
            assertEquals(v, roundTrip(v), () -> "round trip of " + v);
            assertEquals(v.getClass().isAssignableFrom(roundTrip(v).getClass()) || v instanceof java.util.Collection<?>
                    || v instanceof Map<?, ?>, true);
        }
        assertNull(roundTrip(null));
        assertArrayEquals(new byte[] {1, 2, 3, -1}, (byte[]) roundTrip(new byte[] {1, 2, 3, -1}));
        List<Object> withNull = new ArrayList<>();
        withNull.add(null);
        withNull.add("x");
        assertEquals(withNull, roundTrip(withNull));
        Set<?> set = (Set<?>) roundTrip(new LinkedHashSet<>(List.of(3, 1, 2)));
        assertEquals(List.of(3, 1, 2), new ArrayList<>(set), "a set keeps its iteration order");
    }

    @Test
    void registeredRecordsAndEnumsRoundTrip() {
        assertSame(Color.GREEN, roundTrip(Color.GREEN), "a constant with a body");
        Point p = new Point(1, -2L, 0.25, Color.RED);
        assertEquals(p, roundTrip(p));
        try (ActorSystem system = ActorSystem.create("wire-test")) {
            ActorRef<String> local = system.spawn((ctx, s) -> Behavior.same());
            Nested n = new Nested("n", List.of(p, new Point(3, 4, 5, Color.GREEN)), Map.of("deep", List.of(Map.of("k", 1))),
                    new byte[] {9}, local);
            Nested back = (Nested) roundTrip(n);
            assertEquals(n.name(), back.name());
            assertEquals(n.points(), back.points());
            assertEquals(n.extra(), back.extra());
            assertArrayEquals(n.blob(), back.blob());
            assertSame(local, back.ref(), "a local ref comes back as itself");
            assertEquals(refs.export(local), refs.export(local), "one key per ref");
        }
        RemoteRef<String> far = new RemoteRef<>(null, "there", 42, "far");
        ActorRef<?> farBack = (ActorRef<?>) roundTrip(far);
        assertEquals(far, farBack);
        assertEquals("far", farBack.name());
    }

    @Test
    void userCodecsRoundTripAndCanBeReplaced() {
        codec.register(Instant.class, (t, out) -> out.appendLong(t.toEpochMilli()), in -> Instant.ofEpochMilli(in.getLong(0)));
        Instant t = Instant.ofEpochMilli(1_700_000_000_123L);
        assertEquals(t, roundTrip(t));
        assertTrue(codec.registeredTypes().contains(Instant.class));
        codec.register(Instant.class, new MessageCodec<Instant, Instant>() {
            @Override
            public void encodeToWire(Buffer buffer, Instant i) {
                buffer.appendLong(i.getEpochSecond()).appendInt(i.getNano());
            }

            @Override
            public Instant decodeFromWire(int pos, Buffer buffer) {
                return Instant.ofEpochSecond(buffer.getLong(pos), buffer.getInt(pos + 8));
            }

            @Override
            public Instant transform(Instant i) {
                return i;
            }

            @Override
            public String name() {
                return "instant";
            }

            @Override
            public byte systemCodecID() {
                return -1;
            }
        });
        Instant precise = Instant.ofEpochSecond(5, 123_456_789);
        Buffer b = encode(precise);
        assertEquals(precise, decode(b), "the Vert.x codec replaced the first one");
    }

    @Test
    void unregisteredTypesAreRefusedAtTheSender() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> encode(new Unregistered(1)));
        assertTrue(e.getMessage().contains(Unregistered.class.getName()) && e.getMessage().contains("allow(Unregistered.class)"),
                e::getMessage);
        e = assertThrows(IllegalArgumentException.class, () -> encode(List.of(Map.of("k", new Object()))));
        assertTrue(e.getMessage().contains("java.lang.Object"), e::getMessage);
        assertThrows(IllegalArgumentException.class, () -> encode(new Point(1, 2, 3, null)).appendByte((byte) 0)
                .appendBuffer(encode(Thread.currentThread())));
        assertThrows(IllegalArgumentException.class, () -> new WireCodec().register(String.class));
        Object deep = "x";
        for (int i = 0; i < WireCodec.MAX_DEPTH + 5; i++) {
            deep = List.of(deep);
        }
        Object tooDeep = deep;
        assertThrows(IllegalArgumentException.class, () -> encode(tooDeep));
    }

    @Test
    void aTypeNameNotInTheRegistryIsRefusedAndNeverLoaded() {
        Buffer good = encode(new Point(1, 2, 3, Color.RED));
        WireCodec receiver = new WireCodec().register(Color.class); // not Point
        WireCodec.WireFormatException e = assertThrows(WireCodec.WireFormatException.class,
                () -> receiver.decode(good, 0, good.length(), refs));
        assertTrue(e.getMessage().contains(Point.class.getName()) && e.getMessage().contains("not registered"), e::getMessage);
        byte[] name = "io.gmp4j.cluster.Gadget".getBytes(StandardCharsets.UTF_8);
        Buffer gadget = Buffer.buffer().appendByte(WireCodec.RECORD).appendInt(name.length).appendBytes(name)
                .appendInt(1).appendByte(WireCodec.STRING).appendInt(1).appendString("x");
        assertThrows(WireCodec.WireFormatException.class, () -> decode(gadget));
        assertNull(System.getProperty("gmp4j.test.gadget.initialized"), "the gadget class was initialized");
    }

    @Test
    void everyTruncationIsRefused() {
        try (ActorSystem system = ActorSystem.create("wire-trunc")) {
            Buffer full = encode(new Nested("name", List.of(new Point(1, 2, 3, Color.GREEN)), Map.of("k", "v"),
                    new byte[] {1, 2}, system.spawn((ctx, s) -> Behavior.same())));
            for (int len = 0; len < full.length(); len++) {
                Buffer cut = full.getBuffer(0, len);
                assertThrows(WireCodec.WireFormatException.class, () -> decode(cut), "truncated to " + len);
            }
            Buffer longer = full.copy().appendByte((byte) 0);
            assertThrows(WireCodec.WireFormatException.class, () -> decode(longer), "a byte too many");
        }
    }

    @Test
    void oversizedAndMalformedInputIsRefused() {
        List<Buffer> bad = List.of(
                Buffer.buffer().appendByte(WireCodec.STRING).appendInt(Integer.MAX_VALUE),
                Buffer.buffer().appendByte(WireCodec.STRING).appendInt(-1),
                Buffer.buffer().appendByte(WireCodec.BYTES).appendInt(WireCodec.MAX_LENGTH + 1),
                Buffer.buffer().appendByte(WireCodec.LIST).appendInt(WireCodec.MAX_ELEMENTS + 1),
                Buffer.buffer().appendByte(WireCodec.LIST).appendInt(1000).appendByte(WireCodec.NULL), // claims more than it has
                Buffer.buffer().appendByte(WireCodec.MAP).appendInt(1).appendByte(WireCodec.NULL),
                Buffer.buffer().appendByte((byte) 99),
                enumNamed("NOPE"),
                recordWithComponents(2, Buffer.buffer().appendByte(WireCodec.INT).appendInt(1).appendByte(WireCodec.INT).appendInt(2)),
                recordWithComponents(1, Buffer.buffer().appendByte(WireCodec.STRING).appendInt(1).appendString("x")),
                recordWithComponents(1, Buffer.buffer().appendByte(WireCodec.INT).appendInt(-5))); // its constructor refuses
        for (Buffer b : bad) {
            assertThrows(WireCodec.WireFormatException.class, () -> decode(b), () -> "accepted " + b);
        }
        Buffer deep = Buffer.buffer();
        for (int i = 0; i < WireCodec.MAX_DEPTH + 2; i++) {
            deep.appendByte(WireCodec.LIST).appendInt(1);
        }
        deep.appendByte(WireCodec.NULL);
        WireCodec.WireFormatException e = assertThrows(WireCodec.WireFormatException.class, () -> decode(deep));
        assertTrue(e.getMessage().contains("deeper"), e::getMessage);
    }

    private static Buffer enumNamed(String constant) {
        byte[] n = Color.class.getName().getBytes(StandardCharsets.UTF_8);
        byte[] c = constant.getBytes(StandardCharsets.UTF_8);
        return Buffer.buffer().appendByte(WireCodec.ENUM).appendInt(n.length).appendBytes(n).appendInt(c.length).appendBytes(c);
    }

    private static Buffer recordWithComponents(int count, Buffer components) {
        byte[] n = Positive.class.getName().getBytes(StandardCharsets.UTF_8);
        return Buffer.buffer().appendByte(WireCodec.RECORD).appendInt(n.length).appendBytes(n).appendInt(count).appendBuffer(components);
    }
}
