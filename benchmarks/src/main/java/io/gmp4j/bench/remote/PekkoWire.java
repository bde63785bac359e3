package io.gmp4j.bench.remote;

import io.gmp4j.bench.remote.RemoteMsgs.Ack;
import io.gmp4j.bench.remote.RemoteMsgs.Data;
import io.gmp4j.bench.remote.RemoteMsgs.Done;
import io.gmp4j.bench.remote.RemoteMsgs.PHello;
import io.gmp4j.bench.remote.RemoteMsgs.PStart;
import io.gmp4j.bench.remote.RemoteMsgs.Ping;
import io.gmp4j.bench.remote.RemoteMsgs.Pong;
import io.gmp4j.bench.remote.RemoteMsgs.Ready;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.serialization.JSerializer;
import org.apache.pekko.serialization.Serialization;

/**
 * Pekko's serializer for {@link RemoteMsgs}: a tag byte, then the fields in
 * {@link DataOutputStream} form; a reference as its serialized actor path. Pekko 1.x has Java
 * serialization off, so application messages need a serializer; this one is bound to the
 * benchmark records in {@link PekkoRemote#config}. It is hand-written for these records, the
 * cheapest kind Pekko offers (gmp4j's side uses its generic record codec).
 */
public final class PekkoWire extends JSerializer {
    private static final byte PING = 1, PONG = 2, DATA = 3, ACK = 4, DONE = 5, READY = 6, HELLO = 7, START = 8;
    private final ExtendedActorSystem system;

    /** Pekko calls this with the system the serializer serves. */
    public PekkoWire(ExtendedActorSystem system) {
        this.system = system;
    }

    @Override
    public int identifier() {
        return 0x676d70; // "gmp": any number above Pekko's reserved 0..40
    }

    @Override
    public boolean includeManifest() {
        return false;
    }

    @Override
    public byte[] toBinary(Object o) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(32);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            switch (o) {
                case Ping p -> {
                    out.writeByte(PING);
                    out.writeLong(p.seq());
                }
                case Pong p -> {
                    out.writeByte(PONG);
                    out.writeLong(p.seq());
                }
                case Data d -> {
                    out.writeByte(DATA);
                    out.writeInt(d.sender());
                    out.writeLong(d.seq());
                }
                case Ack a -> {
                    out.writeByte(ACK);
                    out.writeInt(a.sender());
                    out.writeLong(a.received());
                }
                case Done d -> {
                    out.writeByte(DONE);
                    out.writeLong(d.received());
                    out.writeLong(d.errors());
                }
                case Ready r -> {
                    out.writeByte(READY);
                    out.writeLong(r.total());
                }
                case PHello h -> {
                    out.writeByte(HELLO);
                    out.writeUTF(Serialization.serializedActorPath(h.replyTo()));
                }
                case PStart s -> {
                    out.writeByte(START);
                    out.writeLong(s.total());
                    out.writeInt(s.senders().size());
                    for (ActorRef r : s.senders()) {
                        out.writeUTF(Serialization.serializedActorPath(r));
                    }
                    out.writeUTF(Serialization.serializedActorPath(s.doneTo()));
                }
                default -> throw new IllegalArgumentException("PekkoWire: cannot serialize a " + o.getClass().getName());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    @Override
    public Object fromBinaryJava(byte[] bytes, Class<?> manifest) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(bytes))) {
            byte tag = in.readByte();
            return switch (tag) {
                case PING -> new Ping(in.readLong());
                case PONG -> new Pong(in.readLong());
                case DATA -> new Data(in.readInt(), in.readLong());
                case ACK -> new Ack(in.readInt(), in.readLong());
                case DONE -> new Done(in.readLong(), in.readLong());
                case READY -> new Ready(in.readLong());
                case HELLO -> new PHello(ref(in.readUTF()));
                case START -> {
                    long total = in.readLong();
                    int n = in.readInt();
                    if (n < 0 || n > 1024) {
                        throw new IllegalArgumentException("PekkoWire: " + n + " senders");
                    }
                    List<ActorRef> senders = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        senders.add(ref(in.readUTF()));
                    }
                    yield new PStart(total, List.copyOf(senders), ref(in.readUTF()));
                }
                default -> throw new IllegalArgumentException("PekkoWire: unknown tag " + tag);
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ActorRef ref(String path) {
        return system.provider().resolveActorRef(path);
    }
}
