/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pseudobulk;

import io.scflux.core.BlockBuffer;
import io.scflux.core.BlockSource;
import io.scflux.core.Engine;
import io.scflux.core.Execution;
import io.scflux.core.HostBackend;
import io.scflux.core.MemoryAccount;
import io.scflux.core.PlanTarget;
import io.scflux.core.Streaming;
import io.scflux.ops.values.ValueCheck;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Sums the rows of a matrix into groups (row {@code i} into group {@code groupOfRow[i]}, none where it is -1) and
 * counts each group's non-zero entries per column, deterministically and in parallel, into one
 * {@code groups x columns} accumulator: there is no copy of it per thread or per block.
 *
 * <p>The scheme. The columns are cut into a constant number of owner buckets (contiguous column ranges,
 * {@link #BUCKETS}, fewer only when there are fewer columns), and each accumulator cell belongs to the bucket of its
 * column. Each block, in block order, is first split (in parallel with other blocks) by bucket: rows sorted by column
 * (as anndata writes them) stay in place, listed group by group, and only (a sample of) each bucket's entries is
 * counted; otherwise the entries are copied out by bucket with their accumulator cell. Then the block's buckets are
 * cut into one run of consecutive buckets per worker (up to {@code threads}), each run holding about as many entries,
 * and each worker adds its run alone, row by row (runs own disjoint cells, so workers never touch the same cell, and
 * each reads its part of every row in memory order); the next block starts when all its runs are done. Every cell
 * belongs to one group, so it receives its additions one at a time in row order, whatever the thread count, the
 * bucket count, how the runs were cut, the order of the groups or the block plan: the bits depend on none of them.
 */
final class OwnerBuckets {

    /** Owner buckets (column ranges) of the accumulator: a constant, never the thread count. */
    static final int BUCKETS = 128;
    /** A sorted block's entries per bucket are counted on every {@value}th row: enough to share the work out. */
    private static final int SAMPLED = 8;
    /** Row orders kept for later blocks: more than the blocks a pass has in flight. */
    private static final int SPARE_ORDERS = 16;

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
    /** Row orders of blocks added, for the splits of the next ones (a split runs one block at a time). */
    private final ArrayDeque<long[]> spareOrders = new ArrayDeque<>();
    /** Whether every value must be a count (finite, not negative): {@link ValueCheck#requireCounts}. */
    private boolean requireCounts;

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
        this.cells = new double
                [MemoryAccount.host()
                        .requireArray(
                                2 * cells,
                                Double.BYTES,
                                "the pseudobulk sums and counts of " + nGroups + " groups x " + nCols + " genes")];
    }

    int buckets() {
        return buckets;
    }

    /**
     * Refuses, as it splits each block in order, a value that is not a count (negative, NaN, infinite): the first in
     * row order fails the sum with {@link ValueCheck.Found}. Returns this accumulator.
     */
    OwnerBuckets requiringCounts() {
        requireCounts = true;
        return this;
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
            return Mono.error(
                    new IllegalArgumentException(x.describe() + " is not " + groupOfRow.length + " x " + nCols));
        }
        if (!streaming.engine().isLocal()) {
            return byOwners(x, streaming);
        }
        Execution e = streaming.execution();
        int workers = Math.min(e.threads(), buckets);
        Flux<BlockBuffer> blocks = streaming.buffers(x);
        Mono<Void> added = workers == 1
                ? blocks.doOnNext(b -> addAll(split(b), 0, buckets)).then()
                : blocks.map(this::split)
                        .concatMap(
                                s -> {
                                    int[] runs = s.runs(workers);
                                    return Flux.range(0, workers)
                                            .flatMap(
                                                    w -> Mono.<Void>fromRunnable(() -> add(s, runs[w], runs[w + 1]))
                                                            .subscribeOn(e.scheduler()),
                                                    workers)
                                            .then(Mono.fromRunnable(() -> release(s)));
                                },
                                1)
                        .then();
        return added.then(Mono.fromSupplier(() -> this));
    }

    private Mono<OwnerBuckets> byOwners(BlockSource x, Streaming streaming) {
        int owners = Math.max(1, Math.min(buckets, streaming.engine().parallelism(streaming.execution())));
        List<Owner> tasks = new ArrayList<>();
        for (int t = 0; t < owners; t++) {
            tasks.add(new Owner(
                    x,
                    streaming.target(),
                    nGroups,
                    nCols,
                    groupOfRow,
                    buckets,
                    requireCounts,
                    t * buckets / owners,
                    (t + 1) * buckets / owners));
        }
        return streaming.engine().run(tasks, streaming.execution()).map(slices -> {
            for (int t = 0; t < owners; t++) {
                tasks.get(t).copy(cells, slices.get(t), firstCol, false);
            }
            return this;
        });
    }

    /**
     * Buckets {@code [from, to)} of the sums of {@code x}: a task that reads every block in order and adds only its
     * buckets' entries, returning their cells (per group, the columns of those buckets, sums and counts side by side).
     */
    private record Owner(
            BlockSource x,
            PlanTarget target,
            int nGroups,
            int nCols,
            int[] groupOfRow,
            int buckets,
            boolean requireCounts,
            int from,
            int to)
            implements Engine.Task<double[]> {
        @Override
        public double[] call() {
            OwnerBuckets acc = new OwnerBuckets(nGroups, nCols, groupOfRow, buckets);
            acc.requireCounts = requireCounts;
            x.buffers(x.plan(target), Execution.sequential(), HostBackend.INSTANCE.memory())
                    .doOnNext(b -> acc.addAll(acc.split(b), from, to))
                    .blockLast();
            double[] out = new double[2 * nGroups * (acc.firstCol[to] - acc.firstCol[from])];
            copy(acc.cells, out, acc.firstCol, true);
            return out;
        }

        /**
         * Between a full accumulator and this owner's slice, one group's run of columns at a time ({@code firstCol}:
         * the first column of each bucket).
         */
        void copy(double[] full, double[] slice, int[] firstCol, boolean toSlice) {
            int width = 2 * (firstCol[to] - firstCol[from]);
            for (int g = 0; g < nGroups; g++) {
                int at = 2 * (g * nCols + firstCol[from]);
                if (toSlice) {
                    System.arraycopy(full, at, slice, g * width, width);
                } else {
                    System.arraycopy(slice, g * width, full, at, width);
                }
            }
        }
    }

    /** {@link #add}, then the block's buffer given back: what a pass with one worker does with each block. */
    private void addAll(Split s, int from, int to) {
        add(s, from, to);
        release(s);
    }

    /** The entries of buckets {@code [from, to)} of one block, added in row order: what one owner does. */
    private void add(Split s, int from, int to) {
        if (from == to) {
            return;
        }
        if (s.block != null) {
            addSorted(
                    s.block,
                    Objects.requireNonNull(s.order, "a split left in its block has its row order"),
                    s.grouped,
                    from,
                    to);
            return;
        }
        int[] cell = Objects.requireNonNull(s.cells, "a split not left in its block has its entries copied");
        float[] val = Objects.requireNonNull(s.values, "a split not left in its block has its entries copied");
        double[] acc = cells;
        for (int i = s.start[from], end = s.start[to]; i < end; i++) {
            float v = val[i];
            int at = 2 * cell[i];
            acc[at] += v;
            acc[at + 1] += v != 0 ? 1 : 0;
        }
    }

    /**
     * Buckets {@code [from, to)} of every grouped row of a block whose rows are sorted by column, rows taken group by
     * group (the low halves of {@code order[0, n)}): each row's part is one contiguous run found by two binary
     * searches and read in place, and consecutive rows add into the same group's cells, which stay in cache.
     */
    private void addSorted(BlockBuffer b, long[] order, int n, int from, int to) {
        int[] ip = b.indptr();
        int[] idx = b.indices();
        float[] val = b.values();
        int base = Math.toIntExact(b.rowStart());
        int lowCol = firstCol[from];
        int highCol = firstCol[to];
        double[] acc = cells;
        for (int k = 0; k < n; k++) {
            int r = (int) order[k];
            int row = 2 * groupOfRow[base + r] * nCols;
            int end = highCol == nCols ? ip[r + 1] : firstAtLeast(idx, ip[r], ip[r + 1], highCol);
            for (int i = lowCol == 0 ? ip[r] : firstAtLeast(idx, ip[r], end, lowCol); i < end; i++) {
                float v = val[i];
                int at = row + 2 * idx[i];
                acc[at] += v;
                acc[at + 1] += v != 0 ? 1 : 0;
            }
        }
    }

    /**
     * The block's grouped rows ordered by group, each group's in row order: a cell belongs to one group, so it still
     * receives its additions in row order.
     */
    private Split rowsByGroup(int[] start, BlockBuffer block, int base, int rows) {
        long[] keys = spareOrder(rows);
        int n = 0;
        for (int r = 0; r < rows; r++) {
            int g = groupOfRow[base + r];
            if (g >= 0) {
                keys[n++] = (long) g << 32 | r;
            }
        }
        Arrays.sort(keys, 0, n);
        return new Split(start, null, null, block, keys, n);
    }

    /** An order array of at least {@code rows} entries that an added block gave back, else a new one. */
    private long[] spareOrder(int rows) {
        synchronized (spareOrders) {
            for (Iterator<long[]> it = spareOrders.iterator(); it.hasNext(); ) {
                long[] a = it.next();
                if (a.length >= rows) {
                    it.remove();
                    return a;
                }
            }
        }
        return new long[rows];
    }

    private void giveBack(long[] order) {
        synchronized (spareOrders) {
            if (spareOrders.size() < SPARE_ORDERS) {
                spareOrders.push(order);
            }
        }
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
     * The block's entries by bucket: for a block whose rows are all sorted by column, the block itself and how many
     * entries each bucket holds (every {@value #SAMPLED}th row counted, enough to share the work out); otherwise the
     * entries of grouped rows copied and sorted by bucket (stably: row order within each), and the buffer given back.
     */
    private Split split(BlockBuffer block) {
        if (requireCounts) {
            ValueCheck.requireCounts(block);
        }
        int[] ip = block.indptr();
        int[] idx = block.indices();
        int rows = block.nRows();
        int base = Math.toIntExact(block.rowStart());
        int unsorted = 0;
        for (int r = 0; r < rows; r++) {
            for (int k = ip[r] + 1; k < ip[r + 1]; k++) {
                unsorted |= idx[k] - idx[k - 1] - 1; // negative when a column does not exceed the one before
            }
        }
        int[] start = new int[buckets + 1];
        if (unsorted >= 0) {
            for (int r = 0; r < rows; r += SAMPLED) {
                if (groupOfRow[base + r] >= 0) {
                    for (int k = ip[r]; k < ip[r + 1]; k++) {
                        start[bucketOfCol[idx[k]] + 1]++;
                    }
                }
            }
            prefixSum(start);
            return rowsByGroup(start, block, base, rows);
        }
        float[] val = block.values();
        for (int r = 0; r < rows; r++) {
            if (groupOfRow[base + r] >= 0) {
                for (int k = ip[r]; k < ip[r + 1]; k++) {
                    start[bucketOfCol[idx[k]] + 1]++;
                }
            }
        }
        prefixSum(start);
        int[] at = Arrays.copyOf(start, buckets);
        int[] cells = new int[start[buckets]];
        float[] values = new float[start[buckets]];
        for (int r = 0; r < rows; r++) {
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
        block.release();
        return new Split(start, cells, values, null, null, 0);
    }

    /** Gives back {@code s}'s buffer and order once every run is added, when the entries were left in the buffer. */
    private void release(Split s) {
        if (s.block != null) {
            s.block.release();
            giveBack(Objects.requireNonNull(s.order, "a split left in its block has its row order"));
        }
    }

    private static void prefixSum(int[] counts) {
        for (int k = 1; k < counts.length; k++) {
            counts[k] += counts[k - 1];
        }
    }

    /**
     * One block's entries by bucket: either copied ({@code [start[k], start[k + 1])} of cells and values) or left in
     * the block, {@code start} then counting (a sample of) the entries before each bucket and the low halves of
     * {@code order[0, grouped)} listing the grouped rows group by group (high halves: their groups). So either
     * {@code cells} and {@code values} are set (copied), or {@code block} and {@code order} are (left in the block).
     */
    private record Split(
            int[] start,
            int @Nullable [] cells,
            float @Nullable [] values,
            @Nullable BlockBuffer block,
            long @Nullable [] order,
            int grouped) {

        /**
         * Cuts the buckets into {@code workers} runs of consecutive buckets holding about as many entries each: run
         * {@code w} is {@code [runs[w], runs[w + 1])}. Any cut gives the same bits, this one the same work per worker.
         */
        int[] runs(int workers) {
            int buckets = start.length - 1;
            int[] runs = new int[workers + 1];
            runs[workers] = buckets;
            long total = start[buckets];
            int k = 0;
            for (int w = 1; w < workers; w++) {
                long target = total * w / workers;
                while (k < buckets && start[k] < target) {
                    k++;
                }
                runs[w] = Math.max(k, runs[w - 1]);
            }
            return runs;
        }
    }
}
