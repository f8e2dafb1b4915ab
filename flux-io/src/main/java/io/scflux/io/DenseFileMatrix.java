package io.scflux.io;

import io.scflux.core.BlockPlan;
import io.scflux.core.MemoryAccount;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.RowReader;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A dense 2-D matrix element streamed as sparse row blocks: each block's rows are decoded (whole chunks, or one
 * contiguous range) into a dense buffer bounded by the plan, then compressed to CSR keeping every entry that is not
 * zero ({@code != 0}, so NaN is kept, as scipy keeps it).
 */
final class DenseFileMatrix extends FileMatrixBase {

    private final StoredArray array;
    private final FileStamp stamp;

    DenseFileMatrix(Path file, String element, MatrixInfo info, StoredArray array, FileStamp stamp) {
        super(file, element, info, stamp);
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
        return BlockPlan.dense(nRows(), nCols(), target, array.isChunked() ? array.chunkDims()[0] : 1);
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
        float[] dense = new float[MemoryAccount.host().requireArray(cells, Float.BYTES, array.where() + ": rows " + from + ".." + to)];
        if (array.isChunked()) {
            readChunks(s, from, to, dense);
        } else {
            array.read(s, from * cols, (int) cells, b -> Decode.floats(b, array.dtype(), dense, 0, (int) cells));
        }
        s.stats().addBlock();
        return sparsify(blockIndex, from, rows, cols, dense);
    }

    private void readChunks(Storage s, long from, long to, float[] dense) {
        int[] cd = array.chunkDims();
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
                    Decode.floats(row, array.dtype(), dense, (int) (r - from) * cols + col0, width);
                }
            }
        }
    }

    private static RowBlock sparsify(int blockIndex, long from, int rows, int cols, float[] dense) {
        int[] indptr = new int[rows + 1];
        int nnz = 0;
        for (int k = 0; k < dense.length; k++) {
            nnz += dense[k] != 0 ? 1 : 0;
        }
        int[] idx = new int[nnz];
        float[] val = new float[nnz];
        int at = 0;
        for (int r = 0; r < rows; r++) {
            int base = r * cols;
            for (int c = 0; c < cols; c++) {
                float v = dense[base + c];
                if (v != 0) {
                    idx[at] = c;
                    val[at++] = v;
                }
            }
            indptr[r + 1] = at;
        }
        return RowBlock.of(blockIndex, from, cols, indptr, idx, val);
    }
}
