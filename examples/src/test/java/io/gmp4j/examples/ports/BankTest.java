package io.gmp4j.examples.ports;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.sync.WaitGroup;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The teller goroutine keeps the books exactly under many concurrent clients: the final
 * balance is what the clients' own records say, no balance read is ever negative, and exactly
 * the withdrawals that would overdraw are refused.
 */
@ExtendWith(NoUncaughtExceptions.class)
class BankTest {
    @ParameterizedTest(name = "procs={0}")
    @ValueSource(ints = {1, 2})
    void concurrentClientsLeaveTheExactBalanceAndNeverAnOverdraft(int procs) {
        int clients = TestSupport.stress(64, 16);
        int ops = TestSupport.stress(500, 100);
        try (GoRuntime rt = GoRuntime.builder().maxProcs(procs).name("bank-" + procs).build()) {
            TestSupport.runInGoroutine(rt, () -> {
                long before = rt.numGoroutine();
                AtomicLong deposited = new AtomicLong();
                AtomicLong withdrawn = new AtomicLong();
                AtomicLong attempts = new AtomicLong();
                AtomicLong refusals = new AtomicLong();
                AtomicLong negativeBalances = new AtomicLong();
                try (Bank bank = Bank.open()) {
                    WaitGroup wg = new WaitGroup();
                    for (int c = 0; c < clients; c++) {
                        Random rnd = new Random(c);
                        wg.go(() -> {
                            for (int i = 0; i < ops; i++) {
                                long amount = 1 + rnd.nextInt(100);
                                switch (rnd.nextInt(5)) {
                                    case 0, 1 -> {
                                        bank.deposit(amount);
                                        deposited.addAndGet(amount);
                                    }
                                    case 2, 3 -> {
                                        attempts.incrementAndGet();
                                        if (bank.withdraw(amount)) {
                                            withdrawn.addAndGet(amount);
                                        } else {
                                            refusals.incrementAndGet();
                                        }
                                    }
                                    default -> {
                                        if (bank.balance() < 0) {
                                            negativeBalances.incrementAndGet();
                                        }
                                    }
                                }
                            }
                        });
                    }
                    wg.await();
                    assertEquals(0, negativeBalances.get(), "balance reads below zero");
                    long balance = bank.balance();
                    assertEquals(deposited.get() - withdrawn.get(), balance, "deposited - withdrawn");
                    assertTrue(refusals.get() < attempts.get(), refusals + " of " + attempts + " refused");
                    // the exact edge: all of it can go, one unit more cannot
                    if (balance > 0) {
                        assertTrue(bank.withdraw(balance), "withdrawing the whole balance");
                    }
                    assertFalse(bank.withdraw(1), "one unit from an empty account");
                    assertEquals(0, bank.balance());
                }
                TestSupport.awaitCondition(() -> rt.numGoroutine() == before, rt::dump);
            });
        }
    }

    /**
     * {@code units} one-unit deposits, then {@code withdrawers} goroutines race for 2 x units
     * one-unit withdrawals: exactly {@code units} succeed and exactly {@code units} are refused.
     */
    @ParameterizedTest(name = "procs={0}")
    @ValueSource(ints = {1, 2})
    void exactlyTheWithdrawalsThatWouldOverdrawAreRefused(int procs) {
        int depositors = 10;
        int withdrawers = 20;
        int units = TestSupport.stress(4_000, 1_000);
        try (GoRuntime rt = GoRuntime.builder().maxProcs(procs).name("bank-refusals-" + procs).build()) {
            TestSupport.runInGoroutine(rt, () -> {
                try (Bank bank = Bank.open()) {
                    WaitGroup deposits = new WaitGroup();
                    for (int d = 0; d < depositors; d++) {
                        deposits.go(() -> {
                            for (int i = 0; i < units / depositors; i++) {
                                bank.deposit(1);
                            }
                        });
                    }
                    deposits.await();
                    assertEquals(units, bank.balance());

                    AtomicLong granted = new AtomicLong();
                    AtomicLong refused = new AtomicLong();
                    WaitGroup withdrawals = new WaitGroup();
                    for (int w = 0; w < withdrawers; w++) {
                        withdrawals.go(() -> {
                            for (int i = 0; i < 2 * units / withdrawers; i++) {
                                (bank.withdraw(1) ? granted : refused).incrementAndGet();
                            }
                        });
                    }
                    withdrawals.await();
                    assertEquals(units, granted.get(), "withdrawals granted");
                    assertEquals(units, refused.get(), "withdrawals refused");
                    assertEquals(0, bank.balance());
                }
            });
        }
    }

    @Test
    void aClosedBankAndBadAmountsFailClearly() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("bank-closed").build()) {
            TestSupport.runInGoroutine(rt, () -> {
                long before = rt.numGoroutine();
                Bank bank = Bank.open();
                assertEquals("deposit: the amount must be positive, got 0",
                        assertThrows(IllegalArgumentException.class, () -> bank.deposit(0)).getMessage());
                assertEquals("withdraw: the amount must be positive, got -5",
                        assertThrows(IllegalArgumentException.class, () -> bank.withdraw(-5)).getMessage());
                bank.deposit(10);
                assertEquals(10, bank.balance());
                bank.close();
                bank.close();                                     // idempotent
                TestSupport.awaitCondition(() -> rt.numGoroutine() == before, rt::dump); // the teller returned
                assertEquals("the bank is closed",
                        assertThrows(IllegalStateException.class, () -> bank.deposit(1)).getMessage());
                assertThrows(IllegalStateException.class, () -> bank.withdraw(1));
                assertThrows(IllegalStateException.class, bank::balance);
            });
        }
    }
}
