package io.gmp4j.examples.ports;

import io.gmp4j.Go;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.Select;
import io.gmp4j.sync.Once;
import io.gmp4j.sync.WaitGroup;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The bank of <i>The Go Programming Language</i> §9.1 ({@code gopl.io/ch9/bank1}) with its
 * exercise 9.1: the balance is a local variable of one {@code teller} goroutine, and clients
 * reach it only through channels. {@code Deposit} sends an amount, {@code Balance} receives the
 * balance from a send case of the teller's {@code select}, and {@code Withdraw} sends a request
 * that carries its own reply channel; the teller refuses a withdrawal that would overdraw.
 *
 * <p>Unlike the book's package-level channels, each {@code Bank} is a value, and it can be
 * closed: the teller returns, and later calls fail with {@link IllegalStateException} instead
 * of blocking forever.
 *
 * <p>{@code ./gmp4j run bank [-clients 100] [-ops 1000]} lets that many goroutines deposit and
 * withdraw at random, then checks the final balance against their own accounts.
 */
public final class Bank implements AutoCloseable {
    /** {@code type withdrawal struct { amount int; ok chan<- bool }}: a request and its reply channel. */
    private record Withdrawal(long amount, Chan<Boolean> ok) {
    }

    private final Chan<Long> deposits = new Chan<>();             // send amount to deposit
    private final Chan<Long> balances = new Chan<>();             // receive balance
    private final Chan<Withdrawal> withdrawals = new Chan<>();    // send amount and reply channel
    private final Chan<Void> quit = new Chan<>();                 // closed by close()
    private final Once closing = new Once();

    private Bank() {
    }

    /** Opens a bank with a zero balance: starts its teller goroutine ({@code go teller()}). */
    public static Bank open() {
        Bank b = new Bank();
        Go.go(b::teller);
        return b;
    }

    /**
     * {@code func Deposit(amount int)}: adds {@code amount} to the balance. As in Go, a
     * deposit gets no answer; the balance is a {@code long} and, like Go's {@code int}, would
     * wrap past {@link Long#MAX_VALUE}.
     *
     * @throws IllegalArgumentException if amount is not positive
     * @throws IllegalStateException if the bank is closed
     */
    public void deposit(long amount) {
        checkAmount("deposit", amount);
        sendOrQuit(deposits, amount);                             // deposits <- amount
    }

    /**
     * {@code func Withdraw(amount int) bool}: takes {@code amount} from the balance if it is
     * there; returns false, changing nothing, if that would overdraw the account.
     *
     * @throws IllegalArgumentException if amount is not positive
     * @throws IllegalStateException if the bank is closed
     */
    public boolean withdraw(long amount) {
        checkAmount("withdraw", amount);
        Chan<Boolean> ok = new Chan<>(1);                         // ok := make(chan bool, 1)
        sendOrQuit(withdrawals, new Withdrawal(amount, ok));      // withdrawals <- withdrawal{amount, ok}
        return ok.recv();                                         // return <-ok
    }

    /**
     * {@code func Balance() int}: the balance now.
     *
     * @throws IllegalStateException if the bank is closed
     */
    public long balance() {
        Select s = new Select();
        int got = s.recv(balances);                               // return <-balances
        s.recv(quit);
        if (s.select() != got) {
            throw closed();
        }
        return s.<Long>value();
    }

    /** Stops the teller; calls made afterwards throw {@link IllegalStateException}. Idempotent. */
    @Override
    public void close() {
        closing.run(quit::close);                                 // closing.Do(func() { close(quit) })
    }

    /** {@code func teller()}: the only goroutine that touches {@code balance}. */
    private void teller() {
        long balance = 0;                                         // balance is confined to teller
        Select s = new Select();
        while (true) {
            s.reset();                                            // select {
            int deposit = s.recv(deposits);                       // case amount := <-deposits:
            int withdrawal = s.recv(withdrawals);                 // case w := <-withdrawals:
            s.send(balances, balance);                            // case balances <- balance:
            int stop = s.recv(quit);                              // case <-quit: return
            int fired = s.select();
            if (fired == deposit) {
                balance += s.<Long>value();
            } else if (fired == withdrawal) {
                Withdrawal w = s.value();
                boolean enough = w.amount() <= balance;
                if (enough) {
                    balance -= w.amount();
                }
                w.ok().send(enough);                              // w.ok <- enough (buffered: never blocks)
            } else if (fired == stop) {
                return;
            }
        }
    }

    private <T> void sendOrQuit(Chan<T> ch, T value) {
        Select s = new Select();
        int sent = s.send(ch, value);
        s.recv(quit);
        if (s.select() != sent) {
            throw closed();
        }
    }

    private static void checkAmount(String op, long amount) {
        if (amount <= 0) {
            throw new IllegalArgumentException(op + ": the amount must be positive, got " + amount);
        }
    }

    private static IllegalStateException closed() {
        return new IllegalStateException("the bank is closed");
    }

    /**
     * {@code ./gmp4j run bank [-clients N] [-ops N]}: N client goroutines each make random
     * deposits and withdrawals; prints what they did and checks the bank agrees.
     */
    public static void main(String[] args) {
        Flags flags = new Flags("bank");
        Supplier<Integer> clients = flags.intFlag("clients", 100, "client goroutines");
        Supplier<Integer> ops = flags.intFlag("ops", 1000, "deposits and withdrawals per client");
        flags.parseOrExit(args);
        if (clients.get() < 1 || ops.get() < 0) {
            flags.exitWithUsage("-clients must be at least 1 and -ops not negative");
        }
        Go.main(() -> {
            AtomicLong deposited = new AtomicLong();
            AtomicLong withdrawn = new AtomicLong();
            AtomicLong refused = new AtomicLong();
            long t0 = System.nanoTime();
            try (Bank bank = Bank.open()) {
                WaitGroup wg = new WaitGroup();
                for (int c = 0; c < clients.get(); c++) {
                    wg.go(() -> {
                        ThreadLocalRandom rnd = ThreadLocalRandom.current();
                        for (int i = 0; i < ops.get(); i++) {
                            long amount = 1 + rnd.nextInt(100);
                            if (rnd.nextBoolean()) {
                                bank.deposit(amount);
                                deposited.addAndGet(amount);
                            } else if (bank.withdraw(amount)) {
                                withdrawn.addAndGet(amount);
                            } else {
                                refused.incrementAndGet();
                            }
                        }
                    });
                }
                wg.await();
                long balance = bank.balance();
                System.out.printf("%d clients, %d operations each (%.1f ms)%n", clients.get(), ops.get(),
                        (System.nanoTime() - t0) / 1e6);
                System.out.printf("deposited %d, withdrew %d, refused %d withdrawals (insufficient funds)%n",
                        deposited.get(), withdrawn.get(), refused.get());
                System.out.printf("balance %d = deposited - withdrawn: %s%n", balance,
                        balance == deposited.get() - withdrawn.get() ? "yes" : "NO");
            }
        });
    }
}
