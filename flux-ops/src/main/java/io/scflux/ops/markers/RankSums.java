/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.markers;

import io.scflux.core.BlockSource;
import io.scflux.core.Execution;
import io.scflux.core.MemoryAccount;
import io.scflux.core.Pass;
import io.scflux.core.RowBlock;
import io.scflux.core.Streaming;
import io.scflux.core.TemporaryFiles;
import io.scflux.ops.moments.GeneSums;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The Wilcoxon rank-sum z-scores of rank_genes_groups, as scanpy computes them, out of core. Each gene's values are
 * ranked over the cells compared (every cell, against the rest; a group's and the reference's cells, against a
 * reference), ties given their average rank as scipy's {@code rankdata} does and the zeros one tied block; a group's
 * ranks are summed, and {@code z = (R - n (N + 1) / 2) / sqrt(T n (N - n) (N + 1) / 12)}, T being scipy's
 * {@code tiecorrect} with tie correction and 1 without.
 *
 * <p>Memory is bounded by one range of genes, whatever the number of cells: the genes are cut into consecutive ranges
 * whose non-zero values (counted by the first pass) fit {@link #RANGE_BYTES}, each gathered gene by gene (a value and
 * the cell's label in 8 bytes), taken from each block in parallel and placed in block order; then each gene's are
 * sorted and ranked, genes in parallel. Up to {@link #PASSES} ranges, each range is a pass over X; beyond, one pass
 * scatters every range's values into a {@link RangeSpill} on disk and each range reads its own back, so that X is read
 * once whatever its size (a range per pass would read it a number of times that grows with it). Ranks are halves of
 * integers and their sums are exact (here as doubled longs, in scanpy as float64 below 2^53), so the scores do not
 * depend on the threads, the block plan, the ranges or the spill.
 */
final class RankSums {

    /** The values gathered per pass at most: 64 MiB of them (8 Mi values), the range's genes chosen to fit. */
    static final long RANGE_BYTES = 64L << 20;

    /** The most ranges gathered by a pass over X each; more go through a {@link RangeSpill}. */
    static final int PASSES = 2;

    /** Genes ranked per task. */
    private static final int GENES_PER_TASK = 64;

    private final int[] labelOfCell;
    private final long[] cells;
    private final int[] tested;
    private final int reference;
    private final boolean tieCorrect;
    /** Whether the values of a label's cells are gathered (those of every cell against the rest). */
    private final boolean[] gathered;
    /** Per gene, its non-zero values in gathered cells. */
    private final long[] counts;

    private final List<int[]> ranges = new ArrayList<>();
    /** Per gene, its range's index in {@link #ranges}; per range, its first gene. */
    private final int[] rangeOf;

    private final int[] firstOf;
    /**
     * The low bits of a gathered record that hold the gene within its range, below the label: ranges are at most
     * {@code 2^geneBits} genes wide, so that a label and a gene fit the key's 32 low bits together.
     */
    private final int geneBits;
    /** The gathered values of one range, gene after gene. */
    private final long[] entries;
    /** Per tested group, per gene. */
    private final double[][] z;

    private RankSums(GroupLabels groups, GeneSums.Sums sums, boolean tieCorrect, long rangeEntries) {
        int nGenes = sums.nGenes;
        this.labelOfCell = groups.labelOfCell;
        this.cells = groups.cells;
        this.tested = groups.tested();
        this.reference = groups.reference;
        this.tieCorrect = tieCorrect;
        this.gathered = new boolean[groups.labels()];
        if (reference < 0) {
            Arrays.fill(gathered, true);
        } else {
            for (int k : groups.order) {
                gathered[k] = true;
            }
        }
        this.counts = new long[nGenes];
        for (int l = 0; l < gathered.length; l++) {
            if (gathered[l]) {
                for (int g = 0; g < nGenes; g++) {
                    counts[g] += sums.positive[l * nGenes + g];
                }
            }
        }
        long largest = 0;
        this.rangeOf = new int[nGenes];
        this.geneBits = Integer.numberOfLeadingZeros(groups.labels() - 1);
        long widest = 1L << geneBits;
        for (int from = 0; from < nGenes; ) {
            long total = counts[from];
            int to = from + 1;
            while (to < nGenes && total + counts[to] <= rangeEntries && to - from < widest) {
                total += counts[to++];
            }
            Arrays.fill(rangeOf, from, to, ranges.size());
            ranges.add(new int[] {from, to});
            largest = Math.max(largest, total);
            from = to;
        }
        this.firstOf = ranges.stream().mapToInt(range -> range[0]).toArray();
        this.entries = new long
                [MemoryAccount.host()
                        .requireArray(
                                largest,
                                Long.BYTES,
                                "the non-zero values of one range of genes for the wilcoxon ranks")];
        this.z = new double[tested.length][nGenes];
    }

    /**
     * The z-scores of the tested groups of {@code groups} (per group in {@link GroupLabels#tested} order, per gene) on
     * X, whose per-label sums {@code sums} hold the non-zero counts; a NaN score becomes 0, as in scanpy.
     */
    static Mono<double[][]> zScores(
            BlockSource x, GroupLabels groups, GeneSums.Sums sums, boolean tieCorrect, Streaming streaming) {
        return zScores(x, groups, sums, tieCorrect, streaming, RANGE_BYTES, PASSES);
    }

    /**
     * As above, gathering at most {@code rangeBytes} of values per range, and with more than {@code passes} ranges
     * through a spill.
     */
    static Mono<double[][]> zScores(
            BlockSource x,
            GroupLabels groups,
            GeneSums.Sums sums,
            boolean tieCorrect,
            Streaming streaming,
            long rangeBytes,
            int passes) {
        return Mono.defer(() -> {
            RankSums r = new RankSums(groups, sums, tieCorrect, Math.max(1, rangeBytes / Long.BYTES));
            Mono<Void> ranked = r.ranges.size() <= passes
                    ? Flux.range(0, r.ranges.size())
                            .concatMap(i -> r.pass(x, i, streaming), 1)
                            .then()
                    : Mono.using(
                            () -> RangeSpill.open(
                                    TemporaryFiles.openScratchDir(
                                            streaming.settings().cacheDir()),
                                    r.rangeTotals()),
                            spill -> r.scatter(x, spill, streaming)
                                    .then(Flux.range(0, r.ranges.size())
                                            .concatMap(i -> r.fromSpill(spill, i, streaming), 1)
                                            .then()),
                            RangeSpill::close);
            return ranked.then(Mono.fromSupplier(() -> r.z));
        });
    }

    /** Range {@code i}: one pass over X gathers its values, then they are ranked. */
    private Mono<Void> pass(BlockSource x, int i, Streaming streaming) {
        int from = ranges.get(i)[0];
        int[] start = starts(i);
        int[] next = Arrays.copyOf(start, start.length - 1);
        return streaming
                .blocks(x, b -> take(b, i, i + 1))
                .doOnNext(t -> place(t.records(), 0, t.records().length, start, next, from))
                .contextWrite(Pass.named("wilcoxon ranks of genes " + (from + 1) + "-" + ranges.get(i)[1]))
                .then(Mono.defer(() -> rank(from, start, streaming.execution())));
    }

    /** One pass over X writes every range's values into {@code spill}, a block's in block order. */
    private Mono<Void> scatter(BlockSource x, RangeSpill spill, Streaming streaming) {
        return streaming
                .blocks(x, b -> take(b, 0, ranges.size()))
                .doOnNext(t -> {
                    for (int r = 0; r < ranges.size(); r++) {
                        spill.append(r, t.records(), t.offsets()[r], t.offsets()[r + 1]);
                    }
                })
                .contextWrite(Pass.named("wilcoxon values of " + ranges.size() + " gene ranges"))
                .then(Mono.fromRunnable(spill::flush));
    }

    /** Range {@code i}: its values read back from {@code spill}, then ranked. */
    private Mono<Void> fromSpill(RangeSpill spill, int i, Streaming streaming) {
        int from = ranges.get(i)[0];
        int[] start = starts(i);
        int[] next = Arrays.copyOf(start, start.length - 1);
        return Mono.fromRunnable(() -> spill.read(i, (records, n) -> place(records, 0, n, start, next, from)))
                .subscribeOn(streaming.execution().scheduler())
                .then(Mono.defer(() -> rank(from, start, streaming.execution())));
    }

    /** Where each gene of range {@code i} starts in {@link #entries}, and the end. */
    private int[] starts(int i) {
        int from = ranges.get(i)[0];
        int[] start = new int[ranges.get(i)[1] - from + 1];
        for (int g = 0; g + 1 < start.length; g++) {
            start[g + 1] = start[g] + (int) counts[from + g];
        }
        return start;
    }

    /** Per range, its genes' values. */
    private long[] rangeTotals() {
        long[] totals = new long[ranges.size()];
        for (int g = 0; g < counts.length; g++) {
            totals[rangeOf[g]] += counts[g];
        }
        return totals;
    }

    /**
     * A block's non-zero values in gathered cells as {@link #record records}, range after range ({@code offsets[r]} to
     * {@code offsets[r + 1]} for the r-th range taken), in row order within each.
     */
    private record Taken(long[] records, int[] offsets) {}

    /** The block's values of the genes of ranges {@code [first, last)}. */
    private Taken take(RowBlock b, int first, int last) {
        int[] ip = b.indptr();
        int[] idx = b.indices();
        float[] val = b.values();
        int base = Math.toIntExact(b.rowStart());
        int[] offsets = new int[last - first + 1];
        for (int r = 0; r < b.nRows(); r++) {
            if (gathered[labelOfCell[base + r]]) {
                for (int k = ip[r]; k < ip[r + 1]; k++) {
                    int range = rangeOf[idx[k]];
                    if (range >= first && range < last && val[k] != 0) {
                        offsets[range - first + 1]++;
                    }
                }
            }
        }
        for (int r = 1; r < offsets.length; r++) {
            offsets[r] += offsets[r - 1];
        }
        int[] next = Arrays.copyOf(offsets, offsets.length - 1);
        long[] records = new long[offsets[offsets.length - 1]];
        for (int r = 0; r < b.nRows(); r++) {
            int label = labelOfCell[base + r];
            if (gathered[label]) {
                for (int k = ip[r]; k < ip[r + 1]; k++) {
                    int range = rangeOf[idx[k]];
                    if (range >= first && range < last && val[k] != 0) {
                        records[next[range - first]++] = record(key(val[k], label), idx[k] - firstOf[range]);
                    }
                }
            }
        }
        return new Taken(records, offsets);
    }

    /** A key with gene {@code gene} of its range packed under its label: the key's value bits, then label and gene. */
    private long record(long key, int gene) {
        return key & 0xffffffff00000000L | (key & 0xffffffffL) << geneBits | gene;
    }

    /**
     * Places {@code records[i]} ({@code from <= i < to}) of the range from gene {@code first}: each value after the
     * values of its gene placed before it, as a key again.
     */
    private void place(long[] records, int from, int to, int[] start, int[] next, int first) {
        long geneMask = (1L << geneBits) - 1;
        for (int i = from; i < to; i++) {
            long record = records[i];
            int g = (int) (record & geneMask);
            if (next[g] == start[g + 1]) {
                throw new IllegalStateException("gene " + (first + g) + " holds more non-zero values than the first "
                        + "pass over X counted: X changed between passes");
            }
            entries[next[g]++] = record & 0xffffffff00000000L | (record & 0xffffffffL) >>> geneBits;
        }
    }

    /**
     * A value and a label as one long whose order is the value's (then the label's): the float's bits made to sort as
     * signed integers in the high half, the label in the low half.
     */
    private static long key(float v, int label) {
        int bits = Float.floatToRawIntBits(v);
        bits ^= (bits >> 31) & 0x7fffffff;
        return (long) bits << 32 | label;
    }

    private static int value(long key) {
        return (int) (key >> 32);
    }

    private static int label(long key) {
        return (int) key;
    }

    /** Ranks the gathered genes of the range from {@code from}, {@link #GENES_PER_TASK} genes a task. */
    private Mono<Void> rank(int from, int[] start, Execution execution) {
        int width = start.length - 1;
        int tasks = (width + GENES_PER_TASK - 1) / GENES_PER_TASK;
        return Flux.range(0, tasks)
                .flatMap(
                        t -> Mono.fromRunnable(() -> rankGenes(
                                        from, start, t * GENES_PER_TASK, Math.min(width, (t + 1) * GENES_PER_TASK)))
                                .subscribeOn(execution.scheduler()),
                        execution.threads())
                .then();
    }

    /** Genes {@code [first, last)} of the range (from gene {@code from}): sorted, ranked, their z-scores set. */
    private void rankGenes(int from, int[] start, int first, int last) {
        int labels = gathered.length;
        long[] rank2 = new long[labels];
        long[] nonzero = new long[labels];
        boolean[] pair = new boolean[labels];
        long nCells = labelOfCell.length;
        for (int g = first; g < last; g++) {
            int gene = from + g;
            Arrays.sort(entries, start[g], start[g + 1]);
            if (reference < 0) {
                double ties = rank(start[g], start[g + 1], gathered, nCells, rank2, nonzero);
                for (int k = 0; k < tested.length; k++) {
                    long n = cells[tested[k]];
                    double sd = tieCorrect
                            ? Math.sqrt(tieFactor(ties, nCells) * n * (nCells - n) * (nCells + 1) / 12.0)
                            : Math.sqrt(product(n, nCells - n, nCells + 1) / 12.0);
                    z[k][gene] = score(rank2[tested[k]] / 2.0 - product(n, nCells + 1, 1) / 2.0, sd);
                }
            } else {
                for (int k = 0; k < tested.length; k++) {
                    int group = tested[k];
                    pair[group] = true;
                    pair[reference] = true;
                    long n = cells[group];
                    long m = cells[reference];
                    double ties = rank(start[g], start[g + 1], pair, n + m, rank2, nonzero);
                    double sd = tieCorrect
                            ? Math.sqrt(tieFactor(ties, n + m) * n * m * (n + m + 1) / 12.0)
                            : Math.sqrt(product(n, m, n + m + 1) / 12.0);
                    z[k][gene] = score(rank2[group] / 2.0 - n * ((n + m + 1) / 2.0), sd);
                    pair[group] = false;
                }
            }
        }
    }

    /** {@code centred / sd}, 0 where that is NaN (scanpy's {@code scores[np.isnan(scores)] = 0}). */
    private static double score(double centred, double sd) {
        double s = centred / sd;
        return Double.isNaN(s) ? 0 : s;
    }

    /** scipy's {@code tiecorrect}: {@code 1 - sum(t^3 - t) / (n^3 - n)} over the tied runs, 1 below two values. */
    private static double tieFactor(double ties, long n) {
        double size = n;
        return n < 2 ? 1 : 1 - ties / (size * size * size - size);
    }

    /** {@code a * b * c} exactly, then rounded to a double once: Python's integers, then its division by a float. */
    private static double product(long a, long b, long c) {
        try {
            return Math.multiplyExact(Math.multiplyExact(a, b), c);
        } catch (ArithmeticException e) {
            return BigInteger.valueOf(a)
                    .multiply(BigInteger.valueOf(b))
                    .multiply(BigInteger.valueOf(c))
                    .doubleValue();
        }
    }

    /**
     * Ranks the sorted values {@code entries[from, to)} of the labels {@code in} among their {@code n} cells, the
     * cells without a value holding zeros: sets {@code rank2[l]} to twice the rank sum of each label {@code l} in
     * {@code in} and returns {@code sum(t^3 - t)} over the runs of tied values (the zeros one of them).
     */
    private double rank(int from, int to, boolean[] in, long n, long[] rank2, long[] nonzero) {
        Arrays.fill(rank2, 0);
        Arrays.fill(nonzero, 0);
        long values = 0;
        for (int i = from; i < to; i++) {
            int l = label(entries[i]);
            if (in[l]) {
                nonzero[l]++;
                values++;
            }
        }
        long zeros = n - values;
        long before = 0;
        long zeroRank2 = -1;
        double ties = 0;
        for (int i = from; i < to; ) {
            int v = value(entries[i]);
            if (zeroRank2 < 0 && v > 0) {
                zeroRank2 = 2 * before + zeros + 1;
                ties += cubeLess(zeros);
                before += zeros;
            }
            int end = i;
            long t = 0;
            while (end < to && value(entries[end]) == v) {
                if (in[label(entries[end])]) {
                    t++;
                }
                end++;
            }
            // positions [before, before + t) share the rank (before + 1 + before + t) / 2
            long r2 = 2 * before + t + 1;
            for (int k = i; k < end; k++) {
                int l = label(entries[k]);
                if (in[l]) {
                    rank2[l] += r2;
                }
            }
            ties += cubeLess(t);
            before += t;
            i = end;
        }
        if (zeroRank2 < 0) {
            zeroRank2 = 2 * before + zeros + 1;
            ties += cubeLess(zeros);
        }
        for (int l = 0; l < in.length; l++) {
            if (in[l]) {
                rank2[l] += zeroRank2 * (cells[l] - nonzero[l]);
            }
        }
        return ties;
    }

    /** {@code t^3 - t} as scipy's float64 {@code cnt**3 - cnt}. */
    private static double cubeLess(long t) {
        double c = t;
        return c * c * c - c;
    }
}
