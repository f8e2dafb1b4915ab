package io.scflux.core.anndata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.Execution;
import io.scflux.core.ForwardingSource;
import io.scflux.core.RowBlock;
import io.scflux.core.Stage;
import io.scflux.core.backend.Backend;
import io.scflux.core.backend.BlockTransfer;
import io.scflux.core.backend.HostBackend;
import io.scflux.core.backend.MemoryAccount;
import io.scflux.core.backend.Resident;
import io.scflux.core.test.BlockSize;
import io.scflux.core.test.Matrices;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The backend rule of a concatenation, with a test double device and a transfer that records every move: blocks stay
 * on their backend when all inputs share it, and with mixed backends only the other inputs' blocks move, to the
 * first input's backend, said once.
 */
class ConcatBackendTest {

    private static final CsrMatrix A = Matrices.random(40, 10, 0.3, 1);
    private static final CsrMatrix B = Matrices.random(25, 10, 0.3, 2);

    /** A device that only has a name: a concatenation never computes on it, it only places blocks. */
    private static final class Device implements Backend {
        private final MemoryAccount memory = MemoryAccount.root("double", Long.MAX_VALUE);

        @Override
        public String name() {
            return "double";
        }

        @Override
        public boolean isHost() {
            return false;
        }

        @Override
        public MemoryAccount memory() {
            return memory;
        }

        @Override
        public Stage normalizeLog1p(double[] factors, boolean single, Double base) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void columnSums(RowBlock block, boolean float32Squares, double[] sum, double[] squares) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void gram(RowBlock block, double[] upper, double[] columnSums) {
            throw new UnsupportedOperationException();
        }

        @Override
        public RowBlock project(RowBlock block, double[] loadings, int k, double[] meanV) {
            throw new UnsupportedOperationException();
        }
    }

    private static final Backend DEVICE = new Device();

    /** {@code m} as a source whose blocks are on {@code backend}. */
    private static BlockSource on(Backend backend, CsrMatrix m) {
        class Placed extends ForwardingSource implements Resident {
            Placed() {
                super(m);
            }

            @Override
            public Backend backend() {
                return backend;
            }
        }
        return new Placed();
    }

    /** Every move, as "from>to:rows" of the block moved. */
    private final List<String> moves = new CopyOnWriteArrayList<>();
    private final List<String> notices = new CopyOnWriteArrayList<>();
    private final BlockTransfer recording = (block, from, to) -> {
        moves.add(from.name() + ">" + to.name() + ":" + block.rowStart() + "-" + block.rowEnd());
        return block;
    };

    private List<RowBlock> read(ConcatSource s, int threads) {
        BlockPlan plan = s.plan(BlockSize.TINY.target());
        return s.blocks(plan, Execution.threads(threads)).collectList().block();
    }

    @Test
    void sharedBackendMovesNothing() {
        for (Backend b : List.of(DEVICE, HostBackend.INSTANCE)) {
            ConcatSource s = ConcatSource.of(List.of(on(b, A), on(b, B), on(b, A))).withTransfer(recording,
                    notices::add);
            assertSame(b, s.backend());
            read(s, 2);
            assertEquals(List.of(), moves, b.name());
            assertEquals(List.of(), notices);
        }
    }

    @Test
    void mixedBackendsMoveTheOtherInputsBlocksToTheFirstsOnceSaid() {
        ConcatSource s = ConcatSource.of(List.of(on(DEVICE, A), B, on(DEVICE, A)), Arrays.asList(null, null, null),
                10, 0).withTransfer(recording, notices::add);
        assertSame(DEVICE, s.backend(), "the first input's backend");
        List<RowBlock> blocks = read(s, 1);
        read(s, 2);
        List<RowBlock> bBlocks = B.blocks(B.plan(BlockSize.TINY.target())).collectList().block();
        assertEquals(2 * bBlocks.size(), moves.size(), "each of B's blocks once per pass, nothing else");
        for (int i = 0; i < bBlocks.size(); i++) {
            RowBlock b = bBlocks.get(i);
            assertEquals("host>double:" + b.rowStart() + "-" + b.rowEnd(), moves.get(i), "moved as read from B");
        }
        assertEquals(1, notices.size(), "said once: " + notices);
        assertTrue(notices.get(0).contains("[double, host]"), notices.get(0));
        CsrMatrix.Builder all = CsrMatrix.builder(10);
        blocks.forEach(all::add);
        Matrices.assertSame(ConcatSourceContractTest.denseStack(List.of(A, B, A), Arrays.asList(null, null, null),
                10, 0), all.build());
    }

    @Test
    void withoutADeviceTransferMixingFailsNamingTheBackends() {
        ConcatSource s = ConcatSource.of(List.of(A, on(DEVICE, B))).withTransfer(BlockTransfer.HOST, notices::add);
        Exception e = assertThrows(UnsupportedOperationException.class, () -> read(s, 1));
        assertTrue(e.getMessage().contains("from double to host"), e.getMessage());
    }
}
