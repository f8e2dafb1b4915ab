/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.filter;

import io.scflux.core.BlockSource;
import io.scflux.core.Pass;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.Selection;
import io.scflux.ops.values.SumType;
import io.scflux.ops.values.TypedSums;
import io.scflux.ops.values.XMatrix;
import java.util.Objects;
import reactor.core.publisher.Mono;

/**
 * scanpy's {@code pp.filter_cells} and {@code pp.filter_genes}: one pass over X counts each cell's (gene's) total and
 * positive values, then the container becomes the selection of those that pass, with the number compared added as
 * scanpy adds it ({@code n_counts} in X's sum type, {@code n_genes} / {@code n_cells} int64). Nothing is copied: X,
 * layers and obsm/varm are views of the input's (see {@link AnnData#subset}), read only when written.
 *
 * <p>Public because the facade {@code Pp}, above the step packages, dispatches to it.
 */
public final class Filter {

    private Filter() {}

    /** The cells of {@code data} that pass {@code options}, on subscription. */
    public static Mono<AnnData> cells(AnnData data, FilterOptions options, Streaming streaming) {
        return filter(data, options, streaming, true);
    }

    /** The genes of {@code data} that pass {@code options}, on subscription. */
    public static Mono<AnnData> genes(AnnData data, FilterOptions options, Streaming streaming) {
        return filter(data, options, streaming, false);
    }

    private static Mono<AnnData> filter(AnnData data, FilterOptions options, Streaming streaming, boolean cells) {
        return Mono.defer(() -> {
                    BlockSource x = XMatrix.of(data);
                    int n = cells ? data.nObs() : data.nVars();
                    AxisCounts pass = cells ? AxisCounts.perCell(x.nCols()) : AxisCounts.perGene(x.nCols());
                    return streaming.reduce(x, pass).map(counts -> {
                        Column number;
                        boolean[] keep = new boolean[n];
                        if (options.measure() == FilterOptions.Measure.COUNTS) {
                            TypedSums sums = TypedSums.of(SumType.summing(x.dtype()), counts.sums(n));
                            for (int i = 0; i < n; i++) {
                                keep[i] = options.keeps(sums.get(i));
                            }
                            number = sums.column();
                        } else {
                            long[] expressed = counts.expressed(n);
                            for (int i = 0; i < n; i++) {
                                keep[i] = options.keeps(expressed[i]);
                            }
                            number = ArrayColumn.of(expressed);
                        }
                        Selection kept = Selection.mask(keep);
                        AnnData out = cells ? data.subset(kept, Selection.all()) : data.subset(Selection.all(), kept);
                        int[] positions = Objects.requireNonNull(
                                kept.resolve(cells ? data.obs() : data.var()), "a mask resolves");
                        (cells ? out.obs() : out.var()).put(options.column(cells), number.take(positions));
                        return out;
                    });
                })
                .contextWrite(Pass.named(cells ? "filter_cells" : "filter_genes"));
    }
}
