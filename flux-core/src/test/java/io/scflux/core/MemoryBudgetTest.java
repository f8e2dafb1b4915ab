package io.scflux.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MemoryBudgetTest {

    @Test
    void theBudgetIsHalfTheMaximumHeapUnlessConfigured() {
        assertEquals(Runtime.getRuntime().maxMemory() / 2, MemoryBudget.bytes());
        System.setProperty("scflux.memory.budget.mb", "3");
        try {
            assertEquals(3L << 20, MemoryBudget.bytes());
            assertEquals(393_216, MemoryBudget.require(393_216, 8, "exactly 3 MiB"));
            MemoryBudgetExceededException e = assertThrows(MemoryBudgetExceededException.class,
                    () -> MemoryBudget.require(393_217, 8, "x.h5ad: /obsm/big"));
            assertTrue(e.getMessage().startsWith("x.h5ad: /obsm/big would need 3.0 MiB (393217 elements)"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("memory budget of 3.0 MiB"), e.getMessage());
        } finally {
            System.clearProperty("scflux.memory.budget.mb");
        }
    }

    @Test
    void declaredSizesThatOverflowOrAreNegativeAreRefused() {
        assertEquals(Long.MAX_VALUE, MemoryBudget.product(1L << 40, 1L << 40));
        assertEquals(Long.MAX_VALUE, MemoryBudget.product(10, -1));
        assertEquals(0, MemoryBudget.product(0, 1L << 62));
        assertEquals(6, MemoryBudget.product(2, 3));
        assertThrows(MemoryBudgetExceededException.class,
                () -> MemoryBudget.require(MemoryBudget.product(1L << 40, 1L << 40), 4, "a"));
        assertThrows(MemoryBudgetExceededException.class, () -> MemoryBudget.require(-1, 4, "a"));
        assertThrows(MemoryBudgetExceededException.class, () -> MemoryBudget.require(Integer.MAX_VALUE, 1, "a"),
                "beyond what one Java array holds");
    }
}
