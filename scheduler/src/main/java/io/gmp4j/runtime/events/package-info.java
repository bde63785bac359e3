/**
 * The scheduler's JFR events ({@code io.gmp4j.*}) and the timeline converter: for gmp4j's own
 * runtime package and the {@code ./gmp4j trace} command, not a user API.
 *
 * <p>Each event class has a static {@code enabled()} check (a static field read through a
 * never-committed probe instance: no allocation while the event is off) and a static
 * {@code emit}/{@code start} that the runtime calls only after that check. The defaults
 * (the annotations, and {@code gmp4j.jfc} in this package's resources) turn the events that come
 * once per scheduling decision off (run, ready, park, create, end) and the rare ones on (steal,
 * P hand-off, preempt request, run-queue overflow, netpoll batch); {@code gmp4j-profile.jfc}
 * turns every one on, with no threshold, for a timeline ({@link TraceConverter}). {@link Settings}
 * reads either as a {@link jdk.jfr.Configuration}.
 */
package io.gmp4j.runtime.events;
