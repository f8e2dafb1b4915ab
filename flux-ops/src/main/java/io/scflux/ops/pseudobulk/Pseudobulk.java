/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pseudobulk;

import io.scflux.core.BlockSource;
import io.scflux.core.Pass;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.DenseMatrix;
import io.scflux.core.anndata.Frame;
import io.scflux.ops.values.ValueCheck;
import java.util.Arrays;
import java.util.stream.IntStream;
import reactor.core.publisher.Mono;

/**
 * decoupler's {@code pp.pseudobulk} (2.1), followed by {@code pp.filter_samples} when a threshold is set: the cells of
 * each (group, sample) pair summed or averaged into one profile, as a new AnnData of pairs x genes with dense float64
 * X, {@code obs["psbulk_cells"]}, {@code obs["psbulk_counts"]} and {@code layers["psbulk_props"]}.
 *
 * <p>Rows follow decoupler: one per pair of a group and a sample present (a pair without cells is a row of zeros with
 * {@code psbulk_cells} 0), ordered by group then sample, named {@code {sample}_{group}}; obs holds the sample, the
 * group and every obs column constant within each pair, all categorical, then the two float64 counts. A pair whose
 * total is 0 keeps zeros in X and psbulk_props, as decoupler skips it. var is the input's, in the input's order.
 * Cells whose sample or group is missing are left out (decoupler cannot sort such a column and fails).
 *
 * <p>X streams once through {@link OwnerBuckets}: one float64 accumulator of pairs x genes, split by gene ranges into
 * a constant number of buckets, each bucket summed by one worker in row order, so the bits depend neither on the
 * thread count nor on the block plan.
 */
public final class Pseudobulk {

    /**
     * Nonzeros per block at least: the bits do not depend on the plan, and the scatter-add takes a block's rows group
     * by group, so larger blocks add more rows into the same group's sums while they are in the CPU cache (200,000
     * cells: 4.6 s with 1 Mi, 6.6 s with 64 Ki).
     */
    static final long CHUNK_NNZ = 1L << 20;

    private Pseudobulk() {}

    /** The pseudobulk of {@code data} (left unchanged), computed on subscription. */
    public static Mono<AnnData> pseudobulk(AnnData data, PseudobulkOptions options, Streaming streaming) {
        return pseudobulk(data, options, streaming, OwnerBuckets.BUCKETS);
    }

    /** As {@link #pseudobulk(AnnData, PseudobulkOptions, Streaming)} with {@code buckets} owner buckets. */
    static Mono<AnnData> pseudobulk(AnnData data, PseudobulkOptions options, Streaming streaming, int buckets) {
        return Mono.defer(() -> {
                    BlockSource x = data.x();
                    if (x == null) {
                        throw new IllegalArgumentException("pseudobulk: the data have no X");
                    }
                    PseudobulkRows rows = PseudobulkRows.of(data.obs(), options.sampleCol(), options.groupsCol());
                    Streaming large = streaming.withTarget(streaming.target().atLeast(CHUNK_NNZ));
                    return new OwnerBuckets(rows.size(), x.nCols(), rows.rowOfCell(), buckets)
                            .requiringCounts()
                            .sum(x, large)
                            .onErrorMap(
                                    ValueCheck.Found.class,
                                    e -> ValueCheck.invalid(data, e.finding, "`pseudobulk`", ValueCheck.Expect.COUNTS))
                            .map(acc -> assemble(data, rows, acc, options));
                })
                .contextWrite(Pass.named("pseudobulk"));
    }

    /**
     * Turns the accumulator into the result in place: row totals, the rows kept, then each kept row's aggregate and
     * proportions moved up to its final position (rows only move up, so nothing is overwritten before it is read).
     */
    private static AnnData assemble(AnnData data, PseudobulkRows rows, OwnerBuckets acc, PseudobulkOptions options) {
        int nGenes = data.nVars();
        double[] x = acc.sums();
        double[] props = acc.nonzero();
        int[] kept = new int[rows.size()];
        double[] cells = new double[rows.size()];
        double[] counts = new double[rows.size()];
        int n = 0;
        for (int row = 0; row < rows.size(); row++) {
            double total = 0;
            for (int g = row * nGenes, end = g + nGenes; g < end; g++) {
                total += x[g];
            }
            if (options.keeps(rows.cells(row), total)) {
                kept[n] = row;
                cells[n] = rows.cells(row);
                counts[n++] = total;
            }
        }
        for (int i = 0; i < n; i++) {
            int from = kept[i] * nGenes;
            int to = i * nGenes;
            if (cells[i] == 0 || counts[i] == 0) {
                Arrays.fill(x, to, to + nGenes, 0);
                Arrays.fill(props, to, to + nGenes, 0);
                continue;
            }
            double divisor = options.mode() == PseudobulkOptions.Mode.MEAN ? cells[i] : 1;
            for (int g = 0; g < nGenes; g++) {
                x[to + g] = x[from + g] / divisor;
                props[to + g] = props[from + g] / cells[i];
            }
        }
        int[] keptRows = Arrays.copyOf(kept, n);
        Frame obs = rows.obs(keptRows);
        obs.put("psbulk_cells", ArrayColumn.of(Arrays.copyOf(cells, n)));
        obs.put("psbulk_counts", ArrayColumn.of(Arrays.copyOf(counts, n)));
        Frame var = data.var().take(IntStream.range(0, nGenes).toArray());
        int size = n * nGenes;
        AnnData out = new AnnData(DenseMatrix.of(n, nGenes, size == x.length ? x : Arrays.copyOf(x, size)), obs, var);
        out.putLayer(
                "psbulk_props", DenseMatrix.of(n, nGenes, size == props.length ? props : Arrays.copyOf(props, size)));
        return out;
    }
}
