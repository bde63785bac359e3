package io.gmp4j.cluster;

/**
 * A class no node registers: a crafted frame names it. Its static initializer and its
 * constructor leave a trace in a system property, so a test can tell that a receiver never
 * initialized nor built one. Nothing but the name (a string) may refer to it in the tests.
 */
record Gadget(String command) {
    static {
        System.setProperty("gmp4j.test.gadget.initialized", "true");
    }

    Gadget {
        System.setProperty("gmp4j.test.gadget.constructed", command);
    }
}
