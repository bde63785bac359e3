package io.gmp4j.bench.net;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.ServerWebSocket;

import java.io.IOException;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * A plain Vert.x 5 WebSocket chat server, written the usual way: every handler on an event
 * loop, no goroutines, no queue of its own. The logged-in WebSockets are in one concurrent set,
 * and a line is broadcast with one {@code writeTextMessage} per member (Vert.x hands a write
 * from another event loop's thread to the member's own loop). It speaks the part of the chat
 * example's protocol that the benchmark uses, one text frame per line: the greeting and
 * {@code *** choose a nickname:}, a unique nickname, {@code *** hello <nick>; ...} and
 * {@code *** <nick> joined lobby} to the room, then every line to everyone as
 * {@code [lobby] <nick>: <text>}. {@code procs} event loops, one verticle instance each on one
 * port ({@link VertxServer}), WebSockets at {@code /ws}.
 */
final class VertxWsChatServer {
    static final String ROOM = "lobby";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,20}");
    private static final int MAX_LINE = 1024;

    private VertxWsChatServer() {
    }

    /** Starts the chat server with {@code procs} event loops and as many verticle instances. */
    static BenchServer start(int procs) throws IOException {
        Room room = new Room();
        return VertxServer.start(procs, port -> new ChatVerticle(port, room));
    }

    /** The one room: its members and the nicknames taken. */
    private static final class Room {
        final Set<ServerWebSocket> members = ConcurrentHashMap.newKeySet();
        final Set<String> nicks = ConcurrentHashMap.newKeySet();

        void broadcast(String line) {
            for (ServerWebSocket m : members) {
                m.writeTextMessage(line);
            }
        }
    }

    /** One HTTP server instance on its own event loop, WebSockets at /ws. */
    private static final class ChatVerticle extends VerticleBase {
        private final int port;
        private final Room room;

        ChatVerticle(int port, Room room) {
            this.port = port;
            this.room = room;
        }

        @Override
        public Future<?> start() {
            HttpServerOptions o = new HttpServerOptions().setHost("127.0.0.1").setPort(port).setTcpNoDelay(true)
                    .setMaxWebSocketFrameSize(MAX_LINE * 4).setMaxWebSocketMessageSize(MAX_LINE * 4);
            return vertx.createHttpServer(o).webSocketHandshakeHandler(h -> {
                if (h.path().equals("/ws")) {
                    h.accept();
                } else {
                    h.reject(404);
                }
            }).webSocketHandler(this::member).listen();
        }

        private void member(ServerWebSocket ws) {
            String[] nick = new String[1]; // this connection's, on its event loop
            ws.textMessageHandler(text -> {
                if (nick[0] == null) {
                    login(ws, nick, text.strip());
                } else if (!text.isBlank()) {
                    room.broadcast("[" + ROOM + "] " + nick[0] + ": " + text);
                }
            });
            ws.closeHandler(v -> {
                if (nick[0] != null && room.members.remove(ws)) {
                    room.nicks.remove(nick[0].toLowerCase(Locale.ROOT));
                    room.broadcast("*** " + nick[0] + " left");
                }
            });
            ws.writeTextMessage("*** welcome to the Vert.x chat");
            ws.writeTextMessage("*** choose a nickname:");
        }

        private void login(ServerWebSocket ws, String[] nick, String name) {
            if (!NAME.matcher(name).matches()) {
                ws.writeTextMessage("*** a nickname is 1 to 20 letters, digits, '_', '-' or '.'; choose a nickname:");
            } else if (!room.nicks.add(name.toLowerCase(Locale.ROOT))) {
                ws.writeTextMessage("*** nickname " + name + " is taken, choose another:");
            } else {
                nick[0] = name;
                ws.writeTextMessage("*** hello " + name + "; you are in " + ROOM);
                room.members.add(ws);
                room.broadcast("*** " + name + " joined " + ROOM);
            }
        }
    }
}
