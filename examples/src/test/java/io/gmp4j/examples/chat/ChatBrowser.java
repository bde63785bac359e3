package io.gmp4j.examples.chat;

import io.gmp4j.TestSupport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * One person at the chat page in a headless Chromium, driven through Selenium: joins with a
 * nickname and a room, types lines, picks someone to write to privately, and reads the message
 * list as the page shows it (each entry's text, which is the protocol line as the server sent
 * it). Waits are for what the page shows (Selenium polls the page); {@link TestSupport#TIMEOUT_S}
 * is only the safety net of a test that has already failed.
 */
final class ChatBrowser implements AutoCloseable {
    /** The Debian packages' binaries; CHROME_BIN / CHROMEDRIVER name others. */
    static final Path CHROMIUM = Path.of(env("CHROME_BIN", "/usr/bin/chromium"));
    static final Path DRIVER = Path.of(env("CHROMEDRIVER", "/usr/bin/chromedriver"));

    private final String who;
    private final ChromeDriver driver;

    private ChatBrowser(String who, ChromeDriver driver) {
        this.who = who;
        this.driver = driver;
    }

    private static String env(String name, String dflt) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? dflt : v;
    }

    /** Whether both binaries are there. */
    static boolean installed() {
        return Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER);
    }

    /** A headless Chromium (a fresh profile of its own) at {@code url}, for the person called {@code who}. */
    static ChatBrowser open(String who, String url) {
        ChromeOptions o = new ChromeOptions();
        o.setBinary(CHROMIUM.toFile());
        // root on CI: no sandbox; a small /dev/shm in containers: no shared memory for the renderer
        o.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1000,640", "--no-first-run", "--disable-extensions");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().build();
        ChromeDriver d = new ChromeDriver(service, o);
        try {
            d.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(TestSupport.TIMEOUT_S));
            d.get(url);
            return new ChatBrowser(who, d);
        } catch (RuntimeException e) {
            d.quit();
            throw e;
        }
    }

    /** Fills in the join form and submits it. */
    void join(String nick, String room) {
        type("nick", nick);
        WebElement r = driver.findElement(By.id("room"));
        r.clear();
        r.sendKeys(room);
        driver.findElement(By.id("connect")).click();
    }

    /** Types {@code line} into the input and sends it. */
    void say(String line) {
        type("line", line);
        driver.findElement(By.id("send")).click();
    }

    private void type(String id, String text) {
        WebElement e = driver.findElement(By.id(id));
        e.clear();
        e.sendKeys(text);
    }

    /** Clicks {@code nick} in the people list: what is typed next goes to them privately. */
    void writeTo(String nick) {
        until("'" + nick + "' in the people list", d -> people().contains(nick));
        for (WebElement li : driver.findElements(By.cssSelector("#people li"))) {
            if (li.getText().equals(nick)) {
                li.click();
                return;
            }
        }
        fail(who + ": no '" + nick + "' to click in " + people());
    }

    /** Clicks the private-message chip's close button: what is typed next goes to the room. */
    void writeToRoom() {
        driver.findElement(By.id("to-clear")).click();
    }

    /** The message list's entries' texts, in order. */
    @SuppressWarnings("unchecked")
    List<String> lines() {
        return (List<String>) js("return [...document.querySelectorAll('#messages li')].map(li => li.textContent);");
    }

    /** The class attribute of the message list's entry whose text is {@code line}, or null. */
    String classOf(String line) {
        return (String) js("for (const li of document.querySelectorAll('#messages li'))"
                + " if (li.textContent === arguments[0]) return li.className; return null;", line);
    }

    /** The people list as shown. */
    @SuppressWarnings("unchecked")
    List<String> people() {
        return (List<String>) js("return [...document.querySelectorAll('#people li')].map(li => li.textContent);");
    }

    /** Whether the join form is shown (it is, until the server said hello). */
    boolean joinFormShown() {
        return driver.findElement(By.id("join")).isDisplayed();
    }

    /** Whether the chat (messages, input, people) is shown. */
    boolean chatShown() {
        return driver.findElement(By.id("chat")).isDisplayed();
    }

    /** The status badge's text. */
    String status() {
        return driver.findElement(By.id("status")).getText();
    }

    private Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    /** Waits until the message list shows {@code line}. */
    void await(String line) {
        until("the line '" + line + "'", d -> lines().contains(line));
    }

    private void until(String what, Predicate<ChromeDriver> p) {
        try {
            new WebDriverWait(driver, Duration.ofSeconds(TestSupport.TIMEOUT_S), Duration.ofMillis(25))
                    .until(d -> p.test(driver));
        } catch (TimeoutException e) {
            fail(who + "'s page never showed " + what + " in " + TestSupport.TIMEOUT_S + " s; it shows " + lines());
        }
    }

    /** The page as a PNG. */
    byte[] screenshot() {
        return driver.getScreenshotAs(OutputType.BYTES);
    }

    @Override
    public void close() {
        driver.quit();
    }
}
