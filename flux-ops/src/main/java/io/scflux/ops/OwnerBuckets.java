package io.scflux.ops;

import io.scflux.core.BlockSource;
import io.scflux.core.Execution;
import io.scflux.core.MemoryBudget;
import io.scflux.core.RowBlock;
import io.scflux.core.Streaming;
import io.scflux.core.Engine;
import io.scflux.core.PlanTarget;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Sums the rows of a matrix into groups (row {@code i} into group {@code groupOfRow[i]}, none where it is -1) and
 * counts each group's non-zero entries per column, deterministically and in parallel, into one
 * {@code groups x columns} accumulator: there is no copy of it per thread or per block.
 *
 * <p>The scheme. The columns are cut into a constant number of owner buckets (contiguous column ranges,
 * {@link #BUCKETS}, fewer only when there are fewer columns), and each accumulator cell belongs to the bucket of its
 * column. Each block, in block order, is first split (in parallel with other blocks) into its entries per bucket,
 * each bucket's in row order: for rows sorted by column (as anndata writes them) only each row's bucket boundaries are
 * found, otherwise the entries are copied out by bucket with their accumulator cell. Then up to {@code threads} workers take the
 * block's buckets one at a time from a shared counter and add each bucket's entries alone (buckets own disjoint
 * cells, so workers never touch the same cell); the next block starts when all its buckets are done. So every cell
 * receives its additions one at a time in row order, whatever the thread count, the bucket count, which worker took
 * which bucket, or the block plan: the bits depend on none of them.
 */
final class OwnerBuckets {

    /** Owner buckets (column ranges) of the accumulator: a constant, never the thread count. */
    static final int BUCKETS = 128;

    private final int nGroups;
    private final int nCols;
    private final int[] groupOfRow;
    private final int buckets;
    private final int[] bucketOfCol;
    /** The first column of each bucket, and {@code nCols} after the last. */
    private final int[] firstCol;
    /**
     * The accumulator, each cell's sum and non-zero count side by side ({@code 2 * cell}, {@code 2 * cell + 1}): one
     * addition touches one cache line.
     */
    private final double[] cells;

    /** An accumulator of {@code nGroups x nCols} cells split into {@code buckets} owners (at most one per column). */
    OwnerBuckets(int nGroups, int nCols, int[] groupOfRow, int buckets) {
        long cells = (long) nGroups * nCols;
        if (buckets < 1) {
            throw new IllegalArgumentException("buckets must be at least 1, got " + buckets);
        }
        this.nGroups = nGroups;
        this.nCols = nCols;
        this.groupOfRow = groupOfRow;
        this.buckets = Math.max(1, Math.min(buckets, nCols));
        this.bucketOfCol = new int[nCols];
        this.firstCol = new int[this.buckets + 1];
        for (int c = nCols - 1; c >= 0; c--) {
            bucketOfCol[c] = (int) ((long) c * this.buckets / nCols);
            firstCol[bucketOfCol[c]] = c;
        }
        firstCol[this.buckets] = nCols;
        this.cells = new double[MemoryBudget.require(2 * cells, Double.BYTES, "the pseudobulk sums and counts of "
                + nGroups + " groups x " + nCols + " genes")];
    }

    int buckets() {
        return buckets;
    }

    /** The one accumulator (sums and counts interleaved), summed in place. */
    double[] accumulator() {
        return cells;
    }

    /** Per group, per column: the sum of the group's rows ({@code group * nCols + col}), once {@link #sum} is done. */
    double[] sums() {
        return every(0);
    }

    /** Per group, per column: how many of the group's rows hold a value that is not zero (NaN counts). */
    double[] nonzero() {
        return every(1);
    }

    private double[] every(int offset) {
        double[] out = new double[cells.length / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = cells[2 * i + offset];
        }
        return out;
    }

    /**
     * Adds every block of {@code x} (which has {@code groupOfRow.length} rows), then emits this accumulator. On an
     * engine other than the local one, each of its tasks owns a run of buckets, reads every block and adds its buckets'
     * entries in row order; their cells are copied here: the same additions in the same order, so the same bits.
     */
    Mono<OwnerBuckets> sum(BlockSource x, Streaming streaming) {
        if (x.nRows() != groupOfRow.length || x.nCols() != nCols) {
            return Mono.error(new IllegalArgumentException(x.describe() + " is not " + groupOfRow.length + " x "
                    + nCols));
        }
        if (!streaming.engine().isLocal()) {
            return byOwners(x, streaming);
        }
        Execution e = streaming.execution();
        Flux<RowBlock> blocks = streaming.blocks(x);
        Mono<Void> added = e.threads() == 1
                ? blocks.doOnNext(b -> addAll(split(b), new AtomicInteger())).then()
                : blocks.flatMapSequential(b -> Mono.fromCallable(() -> split(b)).subscribeOn(e.scheduler()),
                                e.threads(), 1)
                        .concatMap(s -> {
                            AtomicInteger next = new AtomicInteger();
                            int workers = Math.min(e.threads(), buckets);
                            return Flux.range(0, workers)
                                    .flatMap(w -> Mono.<Void>fromRunnable(() -> addAll(s, next))
                                            .subscribeOn(e.scheduler()), workers)
                                    .then();
                        }, 1)
                        .then();
        return added.then(Mono.fromSupplier(() -> this));
    }

    private Mono<OwnerBuckets> byOwners(BlockSource x, Streaming streaming) {
        int owners = Math.max(1, Math.min(buckets, streaming.engine().parallelism(streaming.execution())));
        List<Owner> tasks = new ArrayList<>();
        for (int t = 0; t < owners; t++) {
            tasks.add(new Owner(x, streaming.target(), nGroups, nCols, groupOfRow, buckets, t * buckets / owners,
                    (t + 1) * buckets / owners));
        }
        return streaming.engine().run(tasks, streaming.execution()).map(slices -> {
            for (int t = 0; t < owners; t++) {
                tasks.get(t).copyInto(slices.get(t), cells);
            }
            return this;
        });
    }

    /**
     * Buckets {@code [from, to)} of the sums of {@code x}: a task that reads every block in order and adds only its
     * buckets' entries, returning their cells (per group, the columns of those buckets, sums and counts side by side).
     */
    private record Owner(BlockSource x, PlanTarget target, int nGroups, int nCols, int[] groupOfRow, int buckets,
                         int from, int to) implements Engine.Task<double[]> {
        @Override
        public double[] call() {
            OwnerBuckets acc = new OwnerBuckets(nGroups, nCols, groupOfRow, buckets);
            x.blocks(x.plan(target)).doOnNext(b -> {
                Split s = acc.split(b);
                for (int k = from; k < to; k++) {
                    acc.add(s, k);
                }
            }).blockLast();
            double[] out = new double[2 * nGroups * width()];
            copy(acc.cells, out, true);
            return out;
        }

        /** Copies the slice this owner returned into the full accumulator {@code cells}. */
        void copyInto(double[] slice, double[] cells) {
            copy(cells, slice, false);
        }

        /** The first column of bucket {@code k} (the smallest {@code c} with {@code c * buckets / nCols >= k}). */
        private int firstCol(int k) {
            return (int) (((long) k * nCols + buckets - 1) / buckets);
        }

        private int width() {
            return firstCol(to) - firstCol(from);
        }

        /** Between the full accumulator and this owner's slice, one group's run of columns at a time. */
        private void copy(double[] full, double[] slice, boolean toSlice) {
            int width = 2 * width();
            for (int g = 0; g < nGroups; g++) {
                int at = 2 * (g * nCols + firstCol(from));
                if (toSlice) {
                    System.arraycopy(full, at, slice, g * width, width);
                } else {
                    System.arraycopy(slice, g * width, full, at, width);
                }
            }
        }
    }

    /** Takes the block's buckets one by one from {@code next} and adds each: the loop every worker of a block runs. */
    private void addAll(Split s, AtomicInteger next) {
        for (int k = next.getAndIncrement(); k < buckets; k = next.getAndIncrement()) {
            add(s, k);
        }
    }

    /** Bucket {@code k}'s entries of one block, added in row order: what one owner does. */
    private void add(Split s, int k) {
        if (s.rowBounds != null) {
            addSorted(s, k);
            return;
        }
        int[] cell = s.cells;
        float[] val = s.values;
        double[] acc = cells;
        for (int i = s.start[k], end = s.start[k + 1]; i < end; i++) {
            float v = val[i];
            int at = 2 * cell[i];
            acc[at] += v;
            acc[at + 1] += v != 0 ? 1 : 0;
        }
    }

    /** Bucket {@code k}'s part of every row of a block whose rows are sorted by column: no copy, no scatter. */
    private void addSorted(Split s, int k) {
        RowBlock b = s.block;
        int[] idx = b.indices();
        float[] val = b.values();
        int[] bounds = s.rowBounds;
        int rows = b.nRows();
        int from = k * rows;
        int to = (k + 1) * rows;
        int base = Math.toIntExact(b.rowStart());
        double[] acc = cells;
        for (int r = 0; r < rows; r++) {
            int g = groupOfRow[base + r];
            if (g < 0) {
                continue;
            }
            int row = 2 * g * nCols;
            for (int i = bounds[from + r], end = bounds[to + r]; i < end; i++) {
                float v = val[i];
                int at = row + 2 * idx[i];
                acc[at] += v;
                acc[at + 1] += v != 0 ? 1 : 0;
            }
        }
    }

    /**
     * Where each row's entries of each bucket start, bucket by bucket ({@code bounds[k * rows + r]}, bucket
     * {@code buckets} being each row's end), so that one owner reads its bounds in order; when every row is sorted
     * by column (one pass reading the columns). Null when a row is not, and the block is then split by copying.
     */
    private int[] rowBounds(RowBlock block) {
        int[] ip = block.indptr();
        int[] idx = block.indices();
        int rows = block.nRows();
        int unsorted = 0;
        for (int r = 0; r < rows; r++) {
            for (int k = ip[r] + 1; k < ip[r + 1]; k++) {
                unsorted |= idx[k] - idx[k - 1] - 1; // negative when a column does not exceed the one before
            }
        }
        if (unsorted < 0) {
            return null;
        }
        int[] bounds = new int[rows * (buckets + 1)];
        for (int r = 0; r < rows; r++) {
            int lo = ip[r];
            int end = ip[r + 1];
            bounds[r] = lo;
            for (int k = 1; k <= buckets; k++) {
                lo = firstAtLeast(idx, lo, end, firstCol[k]);
                bounds[k * rows + r] = lo;
            }
        }
        return bounds;
    }

    /** The first position in the sorted {@code idx[from, to)} whose column is at least {@code col}, else {@code to}. */
    private static int firstAtLeast(int[] idx, int from, int to, int col) {
        int lo = from;
        int hi = to;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (idx[mid] < col) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The block's entries by bucket: for rows sorted by column, each row's bucket boundaries; otherwise the entries
     * of grouped rows copied and sorted by bucket (stably: row order within each).
     */
    private Split split(RowBlock block) {
        int[] bounds = rowBounds(block);
        if (bounds != null) {
            return new Split(null, null, null, block, bounds);
        }
        int[] ip = block.indptr();
        int[] idx = block.indices();
        float[] val = block.values();
        int base = Math.toIntExact(block.rowStart());
        int[] start = new int[buckets + 1];
        for (int r = 0; r < block.nRows(); r++) {
            if (groupOfRow[base + r] >= 0) {
                for (int k = ip[r]; k < ip[r + 1]; k++) {
                    start[bucketOfCol[idx[k]] + 1]++;
                }
            }
        }
        for (int k = 0; k < buckets; k++) {
            start[k + 1] += start[k];
        }
        int[] at = Arrays.copyOf(start, buckets);
        int[] cells = new int[start[buckets]];
        float[] values = new float[start[buckets]];
        for (int r = 0; r < block.nRows(); r++) {
            int g = groupOfRow[base + r];
            if (g >= 0) {
                int row = g * nCols;
                for (int k = ip[r]; k < ip[r + 1]; k++) {
                    int b = bucketOfCol[idx[k]];
                    int i = at[b]++;
                    cells[i] = row + idx[k];
                    values[i] = val[k];
                }
            }
        }
        return new Split(start, cells, values, null, null);
    }

    /**
     * One block's entries by bucket: either copied ({@code [start[k], start[k + 1])} of cells and values) or left in
     * the block with each row's bucket boundaries ({@code rowBounds[k * rows + r]}).
     */
    private record Split(int[] start, int[] cells, float[] values, RowBlock block, int[] rowBounds) {
    }
}
