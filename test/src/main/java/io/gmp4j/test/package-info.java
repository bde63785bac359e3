/**
 * Testing goroutine code (the gmp4j-test artifact, for test scope): {@link io.gmp4j.test.GoTest}
 * runs a JUnit 5 test as the main goroutine of a fresh, seeded runtime and fails it on a leak, a
 * deadlock, a panic or a timeout, with a goroutine dump; {@link io.gmp4j.test.SyncTest} is Go's
 * {@code testing/synctest}: bubbles with a fake clock that moves only when every goroutine of
 * the bubble is durably blocked.
 */
package io.gmp4j.test;
