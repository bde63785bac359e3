package io.gmp4j.cluster;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageCodec;

/**
 * One gmp4j message on the event bus: the bytes {@link ClusterNode} encoded with
 * {@link WireCodec} ({@code [version][kind][long key][value]}), or null when the event bus handed
 * us a frame whose length does not fit the bytes that came.
 */
record WireFrame(Buffer bytes) {
    /** The name of {@link Codec} on the event bus. */
    static final String CODEC_NAME = "gmp4j-wire";

    /** The Vert.x codec of a frame: a length, then the bytes as they are. */
    static final class Codec implements MessageCodec<WireFrame, WireFrame> {
        @Override
        public void encodeToWire(Buffer buffer, WireFrame f) {
            buffer.appendInt(f.bytes().length()).appendBuffer(f.bytes());
        }

        @Override
        public WireFrame decodeFromWire(int pos, Buffer buffer) {
            // Runs on the event loop for bytes anyone may have sent: never throws, never trusts the length.
            if (buffer.length() - pos < 4) {
                return new WireFrame(null);
            }
            int len = buffer.getInt(pos);
            if (len < 0 || len > buffer.length() - pos - 4) {
                return new WireFrame(null);
            }
            return new WireFrame(buffer.getBuffer(pos + 4, pos + 4 + len));
        }

        @Override
        public WireFrame transform(WireFrame f) {
            return f; // immutable once sent: the sender never touches a frame's bytes again
        }

        @Override
        public String name() {
            return CODEC_NAME;
        }

        @Override
        public byte systemCodecID() {
            return -1;
        }
    }
}
