package io.scflux.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryAccountTest {

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
        MemoryCapException e = assertThrows(MemoryCapException.class, () -> blocks.reserve(1 << 20));
        assertTrue(e.getMessage().contains("account 'cuda'"), e.getMessage());
        assertTrue(e.getMessage().contains("for 'cuda/blocks'"), e.getMessage());
        assertTrue(e.getMessage().contains("cap of 1048576 bytes (1.0 MiB)"), e.getMessage());
        assertEquals(1 << 19, root.reserved(), "nothing of the refused reservation is held");
        assertEquals(1 << 19, blocks.reserved());

        MemoryCapException own = assertThrows(MemoryCapException.class,
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
