package io.gmp4j.examples.chat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.gmp4j.examples.chat.LineClient.CHOOSE;
import static io.gmp4j.examples.chat.LineClient.WELCOME;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The chat page in a real headless Chromium (Debian's {@code chromium} and
 * {@code chromium-driver}; {@code .ci/run} installs them): two people in two browsers and one
 * at a raw TCP connection share a room, say lines and write to each other privately, and each
 * sees exactly the lines meant for it, in order, nothing more. Each step waits until everyone
 * it concerns has seen its effect before the next, so the order of the lines is the order of
 * the steps; the last step of each is {@code /rooms}, whose answer must come last, so that a
 * stray line would show before it. A screenshot of the first browser's page is written to
 * {@code target/chat-browser.png}.
 *
 * <p>Without the browser the test fails, naming the packages to install; it is skipped
 * instead only when {@code -Dgmp4j.browser=skip} (or {@code GMP4J_BROWSER=skip}) is given and
 * {@code CI} is not {@code true}: on CI it never skips.
 */
@Timeout(value = 300)
class ChatBrowserTest extends ChatTestBase {

    @BeforeAll
    static void browserInstalled() {
        if (ChatBrowser.installed()) {
            return;
        }
        String missing = "no headless Chromium: " + ChatBrowser.CHROMIUM + " and " + ChatBrowser.DRIVER
                + " must exist (Debian: apt-get install -y chromium chromium-driver; .ci/run installs them;"
                + " CHROME_BIN and CHROMEDRIVER name other binaries)";
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
        boolean skip = "skip".equals(System.getProperty("gmp4j.browser", System.getenv("GMP4J_BROWSER")));
        if (skip && !ci) {
            Assumptions.abort(missing + "; skipped as -Dgmp4j.browser=skip / GMP4J_BROWSER=skip asks (never on CI)");
        }
        fail(missing + (ci ? " (CI=true: never skipped)" : "; to skip it on a machine that is not CI: -Dgmp4j.browser=skip"));
    }

    private static List<String> welcome(String nick, String room) {
        return List.of(WELCOME, CHOOSE, "*** hello " + nick + "; you are in lobby (/join <room> to move, /rooms to list)",
                "*** " + nick + " joined lobby", "*** " + nick + " joined " + room);
    }

    @Test
    void twoBrowsersAndATcpClientShareARoomAndEachSeesExactlyItsLines() throws Exception {
        startWithWeb(ChatConfig.defaults());
        String url = "http://127.0.0.1:" + web.getPort() + "/";
        String rooms = "*** rooms: den (3) lobby (0)";
        try (ChatBrowser alice = ChatBrowser.open("alice", url); ChatBrowser bob = ChatBrowser.open("bob", url)) {
            alice.join("alice", "den");
            alice.await("*** in den: alice");
            bob.join("bob", "den");
            bob.await("*** in den: alice bob");
            alice.await("*** bob joined den");
            assertEquals("connected as alice", alice.status());
            assertTrue(alice.chatShown() && !alice.joinFormShown(), "alice's page shows the chat, not the join form");

            try (ChatClient carol = ChatClient.login(tcp, "carol")) {
                carol.send("/join den");
                carol.await("*** carol joined den"::equals);
                alice.await("*** carol joined den");
                bob.await("*** carol joined den");

                alice.say("hello from a browser");
                String l1 = "[den] alice: hello from a browser";
                carol.await(l1::equals);
                alice.await(l1);
                bob.await(l1);

                carol.send("hi from a terminal");
                String l2 = "[den] carol: hi from a terminal";
                carol.await(l2::equals);
                alice.await(l2);
                bob.await(l2);

                // alice picks carol in the people list and writes to her privately
                alice.writeTo("carol");
                alice.say("psst, carol");
                carol.await("[pm] alice: psst, carol"::equals);
                alice.await("[pm -> carol] psst, carol");
                alice.writeToRoom();

                carol.send("/msg bob a secret for bob");
                bob.await("[pm] carol: a secret for bob");
                carol.await("[pm -> bob] a secret for bob"::equals);

                bob.say("/msg alice hi alice, from bob");
                alice.await("[pm] bob: hi alice, from bob");
                bob.await("[pm -> alice] hi alice, from bob");

                bob.say("/who");
                bob.await("*** in den: alice bob carol");

                alice.say("/rooms");
                alice.await(rooms);
                bob.say("/rooms");
                bob.await(rooms);
                carol.send("/rooms");
                carol.await(rooms::equals);

                List<String> aliceSees = new java.util.ArrayList<>(welcome("alice", "den"));
                aliceSees.addAll(List.of("*** in den: alice", "*** bob joined den", "*** carol joined den", l1, l2,
                        "[pm -> carol] psst, carol", "[pm] bob: hi alice, from bob", rooms));
                List<String> bobSees = new java.util.ArrayList<>(welcome("bob", "den"));
                bobSees.addAll(List.of("*** in den: alice bob", "*** carol joined den", l1, l2,
                        "[pm] carol: a secret for bob", "[pm -> alice] hi alice, from bob", "*** in den: alice bob carol",
                        rooms));
                List<String> carolSees = new java.util.ArrayList<>(welcome("carol", "den"));
                carolSees.addAll(List.of(l1, l2, "[pm] alice: psst, carol", "[pm -> bob] a secret for bob", rooms));
                assertEquals(aliceSees, alice.lines(), "alice's page");
                assertEquals(bobSees, bob.lines(), "bob's page");
                assertEquals(carolSees, carol.seen, "carol's terminal");

                // private messages stand apart on the page; the people list has everyone in the room
                assertEquals("msg pm pm-out", alice.classOf("[pm -> carol] psst, carol"));
                assertEquals("msg pm pm-in", alice.classOf("[pm] bob: hi alice, from bob"));
                assertEquals("msg line mine", alice.classOf(l1));
                assertEquals("msg line", alice.classOf(l2));
                assertEquals("msg notice", alice.classOf(rooms));
                assertEquals(List.of("alice", "bob", "carol"), alice.people());

                Path shot = Path.of("target", "chat-browser.png");
                Files.createDirectories(shot.getParent());
                byte[] png = alice.screenshot();
                assertTrue(png.length > 1000 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G',
                        "a PNG screenshot, got " + png.length + " bytes");
                Files.write(shot, png);
            }
            // carol has gone: both pages hear it
            alice.await("*** carol left");
            bob.await("*** carol left");
            assertEquals(List.of("alice", "bob"), alice.people());
        }
    }
}
