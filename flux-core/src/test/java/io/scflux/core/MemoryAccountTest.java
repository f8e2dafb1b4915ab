/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryAccountTest {

    @Test
    void theHostIsCappedAtHalfTheMaximumHeapUnlessConfigured() {
        assertEquals(Runtime.getRuntime().maxMemory() / 2, MemoryAccount.host().cap());
        MemoryAccount.useHostBudget(3L << 20);
        try {
            assertEquals(3L << 20, MemoryAccount.host().cap(), "read at each check");
            assertEquals(393_216, MemoryAccount.host().requireArray(393_216, 8, "exactly 3 MiB"));
            MemoryBudgetExceededException e = assertThrows(
                    MemoryBudgetExceededException.class,
                    () -> MemoryAccount.host().requireArray(393_217, 8, "x.h5ad: /obsm/big"));
            assertTrue(
                    e.getMessage().startsWith("x.h5ad: /obsm/big would need 3.0 MiB (393217 elements)"),
                    e.getMessage());
            assertTrue(
                    e.getMessage().contains("memory budget of 3.0 MiB (java -Xmx or -Dscflux.memory.budget.mb)"),
                    e.getMessage());
            MemoryAccount pass = MemoryAccount.host().child("pass", Long.MAX_VALUE);
            try {
                assertThrows(
                        MemoryBudgetExceededException.class,
                        () -> pass.reserve((3L << 20) + 1),
                        "a reservation in the host tree is capped by the budget too");
            } finally {
                pass.close();
            }
        } finally {
            MemoryAccount.useHostBudget(0);
        }
    }

    @Test
    void anArrayIsCheckedAgainstTheTightestCapAboveItAndReservesNothing() {
        MemoryAccount root = MemoryAccount.root("cuda", 1000);
        MemoryAccount loose = root.child("loose", Long.MAX_VALUE);
        assertEquals(250, loose.requireArray(250, 4, "250 floats"));
        assertEquals(0, root.reserved());
        MemoryBudgetExceededException e =
                assertThrows(MemoryBudgetExceededException.class, () -> loose.requireArray(251, 4, "251 floats"));
        assertTrue(e.getMessage().contains("more than the cap of account 'cuda', 1000 bytes"), e.getMessage());
    }

    @Test
    void arraysThatOverflowAreNegativeOrBeyondAJavaArrayAreRefused() {
        MemoryAccount none = MemoryAccount.root("none", Long.MAX_VALUE);
        assertThrows(MemoryBudgetExceededException.class, () -> none.requireArray(Long.MAX_VALUE / 2, 4, "a"));
        assertThrows(MemoryBudgetExceededException.class, () -> none.requireArray(-1, 4, "a"));
        assertThrows(
                MemoryBudgetExceededException.class,
                () -> none.requireArray(Integer.MAX_VALUE, 1, "a"),
                "beyond what one Java array holds");
    }

    @Test
    void reservationsCountInEveryAncestorAndThePeakStays() {
        MemoryAccount root = MemoryAccount.root("cuda", 1000);
        MemoryAccount blocks = root.child("blocks", 700);
        MemoryAccount work = root.child("work", 1000);
        blocks.reserve(600);
        work.reserve(300);
        assertEquals(900, root.reserved());
        assertEquals(900, root.peak());
        assertEquals(List.of(blocks, work), root.children());
        assertEquals("cuda/blocks", blocks.name());
        blocks.release(600);
        assertEquals(300, root.reserved());
        assertEquals(900, root.peak(), "the peak is the most held at once");
        assertEquals(600, blocks.peak());
        assertEquals(0, blocks.reserved());
    }

    @Test
    void aReservationOverACapIsRefusedWholeAndNamesTheAccount() {
        MemoryAccount root = MemoryAccount.root("cuda", 1 << 20);
        MemoryAccount blocks = root.child("blocks", 2 << 20);
        blocks.reserve(1 << 19);
        MemoryBudgetExceededException e =
                assertThrows(MemoryBudgetExceededException.class, () -> blocks.reserve(1 << 20));
        assertTrue(e.getMessage().contains("account 'cuda'"), e.getMessage());
        assertTrue(e.getMessage().contains("for 'cuda/blocks'"), e.getMessage());
        assertTrue(e.getMessage().contains("cap of 1048576 bytes (1.0 MiB)"), e.getMessage());
        assertEquals(1 << 19, root.reserved(), "nothing of the refused reservation is held");
        assertEquals(1 << 19, blocks.reserved());

        MemoryBudgetExceededException own = assertThrows(
                MemoryBudgetExceededException.class,
                () -> MemoryAccount.root("small", 10).reserve(11));
        assertTrue(own.getMessage().startsWith("account 'small': reserving 11 bytes"), own.getMessage());
    }

    @Test
    void closingWhileHoldingIsALeakAndReleasingMoreThanHeldIsRefused() {
        MemoryAccount root = MemoryAccount.root("cuda", 100);
        MemoryAccount child = root.child("stream", 100);
        child.reserve(10);
        assertThrows(IllegalStateException.class, () -> child.release(11));
        IllegalStateException leak = assertThrows(IllegalStateException.class, child::close);
        assertTrue(leak.getMessage().contains("closed while holding 10 bytes"), leak.getMessage());
        child.release(10);
        child.close();
        assertEquals(List.of(), root.children());
        assertThrows(IllegalStateException.class, () -> child.reserve(1));
    }
}
