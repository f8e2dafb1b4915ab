/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.scflux.core.BlockPlan;
import io.scflux.core.DType;
import io.scflux.core.ExactValues;
import io.scflux.core.MemoryAccount;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.RowReader;
import io.scflux.io.hdf5.Decode;
import io.scflux.io.hdf5.Storage;
import io.scflux.io.hdf5.StoredArray;
import io.scflux.io.safety.FileStamp;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A dense 2-D matrix element streamed as sparse row blocks: each block's rows are decoded (whole chunks, or one
 * contiguous range) into a dense buffer bounded by the plan, then compressed to CSR keeping every entry that is not
 * zero ({@code != 0}, so NaN is kept, as scipy keeps it).
 */
final class DenseFileMatrix extends FileMatrixBase {

    private final StoredArray array;
    private final FileStamp stamp;

    DenseFileMatrix(
            Path file, String element, MatrixInfo info, StoredArray array, FileStamp stamp, Serializable shipped) {
        super(file, element, info, stamp, shipped);
        this.array = array;
        this.stamp = stamp;
    }

    @Override
    public boolean isDense() {
        return true;
    }

    /** Every row may hold {@code nCols} entries: the plan's weight is that upper bound. */
    @Override
    public void rowNnz(long rowFrom, int count, int[] out) {
        Arrays.fill(out, 0, count, nCols());
    }

    /**
     * Blocks of as many rows as fit {@code chunkNnz} dense entries (at most {@code maxRows}), rounded down to whole
     * chunk rows when a block spans at least one, so no chunk is decoded twice.
     */
    @Override
    BlockPlan computePlan(PlanTarget target) {
        return BlockPlan.dense(nRows(), nCols(), target, array.chunkDims() != null ? array.chunkDims()[0] : 1);
    }

    @Override
    public RowReader open() {
        Storage s = Storage.open(file(), stamp, stats());
        return new RowReader() {
            @Override
            public RowBlock read(int blockIndex, long from, long to) {
                return DenseFileMatrix.this.read(s, blockIndex, from, to);
            }

            @Override
            public void close() {
                s.close();
            }
        };
    }

    private RowBlock read(Storage s, int blockIndex, long from, long to) {
        int rows = Math.toIntExact(to - from);
        int cols = nCols();
        long cells = (long) rows * cols;
        if (cells > PlanTarget.MAX_CHUNK_NNZ) {
            throw new IllegalArgumentException("rows " + from + ".." + to + " hold " + cells
                    + " dense entries, more than one block may (" + PlanTarget.MAX_CHUNK_NNZ + ")");
        }
        DType t = array.dtype();
        boolean mayLose = ExactValues.mayLose(t);
        int perCell = Float.BYTES + (mayLose ? ExactValues.arrayType(t).size() : 0);
        float[] dense = new float
                [MemoryAccount.host().requireArray(cells, perCell, array.where() + ": rows " + from + ".." + to)];
        // the values as stored too, where float32 may change some: kept if it did
        Object stored = mayLose ? ExactValues.newArray(t, dense.length) : null;
        boolean[] lost = new boolean[1];
        Piece piece = (b, at, n) -> {
            boolean flagged = Decode.floats(b, t, dense, at, n);
            if (stored != null) {
                Decode.stored(b, t, stored, at, n);
                lost[0] = lost[0] || flagged && Decode.loses(b, t, dense, at, n);
            }
        };
        if (array.isChunked()) {
            readChunks(s, from, to, piece);
        } else {
            array.read(s, from * cols, (int) cells, b -> piece.decode(b, 0, (int) cells));
        }
        s.stats().addBlock();
        return sparsify(
                blockIndex, from, rows, cols, dense, lost[0] && stored != null ? ExactValues.of(t, stored) : null);
    }

    /** Decodes {@code n} elements of {@code b} (at its position) into entry {@code at} of a block's dense rows. */
    @FunctionalInterface
    private interface Piece {
        void decode(ByteBuffer b, int at, int n);
    }

    private void readChunks(Storage s, long from, long to, Piece piece) {
        int[] cd = Objects.requireNonNull(array.chunkDims(), "a chunked array's chunks");
        long[] grid = array.chunkGrid();
        int cols = nCols();
        int es = array.elementSize();
        for (long gr = from / cd[0]; gr * cd[0] < to; gr++) {
            long chunkRow0 = gr * cd[0];
            long r0 = Math.max(from, chunkRow0);
            long r1 = Math.min(to, chunkRow0 + cd[0]);
            for (long gc = 0; gc < grid[1]; gc++) {
                int col0 = (int) (gc * cd[1]);
                int width = Math.min(cd[1], cols - col0);
                ByteBuffer chunk = array.chunk(s, gr * grid[1] + gc);
                for (long r = r0; r < r1; r++) {
                    int within = (int) (r - chunkRow0) * cd[1];
                    ByteBuffer row = chunk.duplicate().order(chunk.order()).position(within * es);
                    piece.decode(row, (int) (r - from) * cols + col0, width);
                }
            }
        }
    }

    /**
     * The block of the dense rows {@code dense}, without its zeros; {@code stored} (null unless float32 changed some
     * value) the values as stored, whose entries are kept where they are not zero, though their float may be.
     */
    private static RowBlock sparsify(
            int blockIndex, long from, int rows, int cols, float[] dense, @Nullable ExactValues stored) {
        int[] indptr = new int[rows + 1];
        int nnz = 0;
        for (int k = 0; k < dense.length; k++) {
            nnz += nonZero(dense, stored, k) ? 1 : 0;
        }
        int[] idx = new int[nnz];
        float[] val = new float[nnz];
        int[] positions = stored == null ? null : new int[nnz];
        int at = 0;
        for (int r = 0; r < rows; r++) {
            int base = r * cols;
            for (int c = 0; c < cols; c++) {
                if (nonZero(dense, stored, base + c)) {
                    if (positions != null) {
                        positions[at] = base + c;
                    }
                    idx[at] = c;
                    val[at++] = dense[base + c];
                }
            }
            indptr[r + 1] = at;
        }
        RowBlock block = RowBlock.of(blockIndex, from, cols, indptr, idx, val);
        return stored == null || positions == null ? block : block.withExact(stored.gather(positions, nnz, 0));
    }

    private static boolean nonZero(float[] dense, @Nullable ExactValues stored, int k) {
        return stored == null ? dense[k] != 0 : !stored.isZero(k);
    }
}
