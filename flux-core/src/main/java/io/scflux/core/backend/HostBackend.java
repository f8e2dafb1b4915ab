/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.backend;

import io.scflux.core.MemoryAccount;
import io.scflux.core.RowBlock;
import io.scflux.core.Stage;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The JVM heap: the reference kernels, on primitive arrays, that the operators have always run and that a device's
 * results are checked against. Its blocks live on the heap, so its account holds nothing. Serialized (a reducer or a
 * stage shipped to another JVM), it stands for that JVM's host backend.
 */
public final class HostBackend implements Backend, java.io.Serializable {

    public static final HostBackend INSTANCE = new HostBackend();

    private HostBackend() {}

    /** What a serialized host backend is: the receiving JVM's own. */
    private Object readResolve() {
        return INSTANCE;
    }

    @Override
    public String name() {
        return "host";
    }

    @Override
    public boolean isHost() {
        return true;
    }

    @Override
    public MemoryAccount memory() {
        return MemoryAccount.host();
    }

    /** A heap block as it is: the host's blocks are on the heap. */
    @Override
    public RowBlock upload(RowBlock block) {
        return onHeap(block);
    }

    @Override
    public RowBlock download(RowBlock block) {
        return onHeap(block);
    }

    @Override
    public RowBlock reindex(RowBlock block, ColumnMap map, float fill) {
        return map.reindex(onHeap(block), fill);
    }

    private static RowBlock onHeap(RowBlock block) {
        if (block instanceof ResidentBlock r) {
            throw new IllegalArgumentException(block + ": the host cannot take a block resident on "
                    + r.backend().name() + "; that backend downloads it");
        }
        return block;
    }

    @Override
    public Stage normalizeLog1p(double[] factors, boolean single, @Nullable Double base) {
        return NormalizeLog1p.of(factors, single, base);
    }

    @Override
    public void columnSums(RowBlock block, boolean float32Squares, double[] sum, double[] squares) {
        int[] indices = block.indices();
        float[] values = block.values();
        for (int k = 0; k < block.nnz(); k++) {
            float v = values[k];
            int c = indices[k];
            sum[c] += v;
            squares[c] += float32Squares ? v * v : (double) v * v;
        }
    }

    /**
     * Bytes of the packed triangle one panel of {@link #gram} updates, so that its scattered additions hit the cache
     * instead of memory. Measured on one thread, 20,000 rows x 2,000 columns: at 17.5 % density, whole rows 2.7-3.3 s,
     * panels of 128 KiB 1.43 s, 256 KiB 1.29 s, 512 KiB 1.20 s, 1 MiB 1.28 s, OpenBLAS {@code dsyrk} on dense tiles of
     * 512 rows 1.98 s ({@code ssyrk} 1.06 s, but its float32 sums are not exact); on the HVG columns of the 200,000-cell
     * benchmark (12 % dense, tiles of 700 rows), whole rows 1.03-1.14 s, panels of 512 KiB 0.66 s.
     */
    static final int GRAM_PANEL_BYTES = 512 << 10;

    /**
     * Adds the blocks' products into the packed triangle panel by panel: a panel is a run of Gram rows {@code a}
     * whose packed entries span about {@link #GRAM_PANEL_BYTES}, and each row of each block, in order, gives it the
     * pairs whose first column lies in it; the blocks are read where they are, not copied. Every entry still receives
     * its terms in row order, so the sums are bit for bit those of one row at a time; blocks with a row whose columns
     * are not strictly increasing go one row at a time.
     */
    @Override
    public void gram(List<RowBlock> blocks, double[] upper, double[] columnSums) {
        if (blocks.isEmpty()) {
            return;
        }
        int p = blocks.get(0).nCols();
        int[][] cursors = new int[blocks.size()][];
        for (int b = 0; b < blocks.size(); b++) {
            RowBlock block = blocks.get(b);
            if (!increasing(block.indptr(), block.indices(), block.nRows())) {
                for (RowBlock each : blocks) {
                    for (int r = 0; r < each.nRows(); r++) {
                        gramRow(
                                each.indptr()[r],
                                each.indptr()[r + 1],
                                each.indices(),
                                each.values(),
                                p,
                                upper,
                                columnSums);
                    }
                }
                return;
            }
            cursors[b] = Arrays.copyOf(block.indptr(), block.nRows());
        }
        for (int first = 0; first < p; ) {
            int end = first + 1;
            for (long bytes = 8L * (p - first); end < p && bytes + 8L * (p - end) <= GRAM_PANEL_BYTES; end++) {
                bytes += 8L * (p - end);
            }
            for (int b = 0; b < cursors.length; b++) {
                RowBlock block = blocks.get(b);
                gramPanel(
                        block.indptr(),
                        block.indices(),
                        block.values(),
                        block.nRows(),
                        cursors[b],
                        end,
                        p,
                        upper,
                        columnSums);
            }
            first = end;
        }
    }

    /**
     * One block's pairs whose first column is below {@code end}, from each row's {@code cursor} on, which it moves
     * past them.
     */
    private static void gramPanel(
            int[] indptr,
            int[] indices,
            float[] values,
            int rows,
            int[] cursor,
            int end,
            int p,
            double[] upper,
            double[] columnSums) {
        for (int r = 0; r < rows; r++) {
            int to = indptr[r + 1];
            int i = cursor[r];
            for (; i < to && indices[i] < end; i++) {
                int a = indices[i];
                double va = values[i];
                columnSums[a] += va;
                int base = Backend.gramIndex(a, 0, p);
                // the pairs (a, b >= a) of a row in strictly increasing column order are its entries from i on
                for (int j = i; j < to; j++) {
                    upper[base + indices[j]] += va * values[j];
                }
            }
            cursor[r] = i;
        }
    }

    /** One row's products, its columns in any order. */
    private static void gramRow(
            int from, int to, int[] indices, float[] values, int p, double[] upper, double[] columnSums) {
        for (int i = from; i < to; i++) {
            int a = indices[i];
            double va = values[i];
            columnSums[a] += va;
            int base = Backend.gramIndex(a, 0, p);
            for (int j = from; j < to; j++) {
                int b = indices[j];
                if (b >= a) {
                    upper[base + b] += va * values[j];
                }
            }
        }
    }

    /** Whether every row's columns are strictly increasing. */
    private static boolean increasing(int[] indptr, int[] indices, int rows) {
        for (int r = 0; r < rows; r++) {
            for (int i = indptr[r] + 1; i < indptr[r + 1]; i++) {
                if (indices[i] <= indices[i - 1]) {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public RowBlock project(RowBlock block, double[] loadings, int k, double[] meanV) {
        return project(block, null, loadings, k, meanV);
    }

    /**
     * {@link #project} of the block's columns that {@code rowOf} maps to a row of {@code loadings} (-1: left out; null:
     * every column, itself): the same sums, in the same order, as projecting the block with those columns picked.
     */
    public static RowBlock project(RowBlock block, int @Nullable [] rowOf, double[] loadings, int k, double[] meanV) {
        double[] acc = new double[k];
        int[] indptr = block.indptr();
        int[] indices = block.indices();
        float[] values = block.values();
        int rows = block.nRows();
        int[] outPtr = new int[rows + 1];
        int[] outIdx = new int[rows * k];
        float[] out = new float[rows * k];
        for (int r = 0; r < rows; r++) {
            Arrays.fill(acc, 0);
            for (int i = indptr[r]; i < indptr[r + 1]; i++) {
                int row = rowOf == null ? indices[i] : rowOf[indices[i]];
                if (row < 0) {
                    continue;
                }
                double x = values[i];
                int base = row * k;
                for (int j = 0; j < k; j++) {
                    acc[j] += x * loadings[base + j];
                }
            }
            int at = r * k;
            for (int j = 0; j < k; j++) {
                outIdx[at + j] = j;
                out[at + j] = (float) (acc[j] - meanV[j]);
            }
            outPtr[r + 1] = at + k;
        }
        return RowBlock.of(block.blockIndex(), block.rowStart(), k, outPtr, outIdx, out);
    }

    @Override
    public String toString() {
        return "HostBackend";
    }
}
