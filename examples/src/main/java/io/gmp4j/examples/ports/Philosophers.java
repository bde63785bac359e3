package io.gmp4j.examples.ports;

import io.gmp4j.Go;
import io.gmp4j.chan.Chan;
import io.gmp4j.sync.Mutex;
import io.gmp4j.sync.WaitGroup;
import io.gmp4j.time.Time;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The dining philosophers as Go programs usually write them: each chopstick is a
 * {@code sync.Mutex}, each philosopher a goroutine that eats {@code meals} times, and a host
 * (a buffered channel used as a semaphore) seats at most {@code seats} philosophers at once.
 * With fewer seats than philosophers, at least one seated philosopher can always get both
 * chopsticks, so the table never deadlocks (Dijkstra's waiter).
 *
 * <p>Philosopher {@code i} uses chopstick {@code i} on the left and {@code (i + 1) % n} on the
 * right. {@code ./gmp4j run philosophers [-n 5] [-meals 3] [-seats 4] [-eat 10ms] [-think 10ms]}.
 */
public final class Philosophers {
    /**
     * Who is told when a philosopher starts and finishes eating; called while the philosopher
     * holds both chopsticks. Go's program prints here.
     */
    public interface Table {
        /** Philosopher {@code id} holds both chopsticks and starts meal {@code meal} (1-based). */
        void startEating(int id, int meal);

        /** Philosopher {@code id} finishes meal {@code meal}, still holding both chopsticks. */
        void finishEating(int id, int meal);
    }

    /**
     * The dinner's settings.
     *
     * @param philosophers how many philosophers (and chopsticks), at least 2
     * @param meals how many times each philosopher eats, at least 0
     * @param seats how many the host seats at once, 1 to philosophers - 1
     * @param eat how long a meal lasts; zero yields the processor instead ({@code runtime.Gosched})
     * @param think how long a philosopher thinks between meals; zero: not at all
     */
    public record Dinner(int philosophers, int meals, int seats, Duration eat, Duration think) {
        /**
         * Checks the settings.
         *
         * @throws IllegalArgumentException naming the bad one
         */
        public Dinner {
            if (philosophers < 2) {
                throw new IllegalArgumentException("philosophers: need at least 2, got " + philosophers);
            }
            if (meals < 0) {
                throw new IllegalArgumentException("meals: must not be negative, got " + meals);
            }
            if (seats < 1 || seats >= philosophers) {
                throw new IllegalArgumentException("seats: must be 1 to " + (philosophers - 1)
                        + " (fewer than the philosophers, or they may deadlock), got " + seats);
            }
            if (eat.isNegative() || think.isNegative()) {
                throw new IllegalArgumentException("eat and think must not be negative: " + eat + ", " + think);
            }
        }

        /** {@code philosophers} eating {@code meals} times, {@code philosophers - 1} seats, no waits. */
        public static Dinner of(int philosophers, int meals) {
            return new Dinner(philosophers, meals, philosophers - 1, Duration.ZERO, Duration.ZERO);
        }
    }

    /** {@code type Philo struct { id int; left, right *ChopS }}. */
    private record Philo(int id, Mutex left, Mutex right) {
        /** {@code func (p Philo) eat(host chan struct{}, wg *sync.WaitGroup)}. */
        void eat(Dinner d, Chan<Boolean> host, Table table) {
            for (int meal = 1; meal <= d.meals(); meal++) {
                pause(d.think());
                host.send(true);                                  // host <- struct{}{}: ask for a seat
                left.lock();                                      // p.left.Lock()
                right.lock();                                     // p.right.Lock()
                table.startEating(id, meal);                      // fmt.Println("starting to eat", p.id)
                if (d.eat().isZero()) {
                    Go.gosched();                                 // runtime.Gosched()
                } else {
                    Time.sleep(d.eat());                          // time.Sleep(eat)
                }
                table.finishEating(id, meal);                     // fmt.Println("finishing eating", p.id)
                right.unlock();                                   // p.right.Unlock()
                left.unlock();                                    // p.left.Unlock()
                host.recv();                                      // <-host: leave the seat
            }
        }

        private static void pause(Duration d) {
            if (d.isPositive()) {
                Time.sleep(d);
            }
        }
    }

    private Philosophers() {
    }

    /**
     * Go's {@code main}: lays the table, starts one goroutine per philosopher and waits until
     * every one has eaten all its meals ({@code wg.Wait()}). Must run in a goroutine.
     */
    public static void dine(Dinner d, Table table) {
        Mutex[] chopsticks = new Mutex[d.philosophers()];         // CSticks := make([]*ChopS, n)
        for (int i = 0; i < chopsticks.length; i++) {
            chopsticks[i] = new Mutex();
        }
        Chan<Boolean> host = new Chan<>(d.seats());               // host := make(chan struct{}, seats)
        WaitGroup wg = new WaitGroup();
        for (int i = 0; i < d.philosophers(); i++) {
            Philo p = new Philo(i, chopsticks[i], chopsticks[(i + 1) % chopsticks.length]);
            wg.go(() -> p.eat(d, host, table));                   // wg.Add(1); go p.eat(host, &wg)
        }
        wg.await();                                               // wg.Wait()
    }

    /** {@code ./gmp4j run philosophers [-n 5] [-meals 3] [-seats n-1] [-eat 10ms] [-think 10ms]}. */
    public static void main(String[] args) {
        Flags flags = new Flags("philosophers");
        Supplier<Integer> n = flags.intFlag("n", 5, "philosophers (and chopsticks)");
        Supplier<Integer> meals = flags.intFlag("meals", 3, "meals each philosopher eats");
        Supplier<Integer> seats = flags.intFlag("seats", 0, "philosophers the host seats at once (0: n-1)");
        Supplier<Duration> eat = flags.durationFlag("eat", Duration.ofMillis(10), "how long a meal lasts");
        Supplier<Duration> think = flags.durationFlag("think", Duration.ofMillis(10), "how long to think between meals");
        flags.parseOrExit(args);
        Dinner d = null;
        try {
            d = new Dinner(n.get(), meals.get(), seats.get() == 0 ? n.get() - 1 : seats.get(), eat.get(), think.get());
        } catch (IllegalArgumentException e) {
            flags.exitWithUsage(e.getMessage());
        }
        Dinner dinner = d;
        Go.main(() -> {
            dine(dinner, new Table() {
                @Override
                public void startEating(int id, int meal) {
                    System.out.printf("philosopher %d starts eating (meal %d of %d)%n", id, meal, dinner.meals());
                }

                @Override
                public void finishEating(int id, int meal) {
                    System.out.printf("philosopher %d finishes eating%n", id);
                }
            });
            System.out.printf("all %d philosophers ate %d times%n", dinner.philosophers(), dinner.meals());
        });
    }
}
