/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.hvg;

import io.scflux.core.BlockSource;
import io.scflux.core.Pass;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.ops.hvg.HighlyVariableGenesOptions.Flavor;
import io.scflux.ops.moments.GeneSums;
import io.scflux.ops.moments.LogBase;
import io.scflux.ops.values.ValueCheck;
import java.util.LinkedHashMap;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * scanpy's {@code pp.highly_variable_genes}: annotates the genes of X (log-normalized data for seurat and
 * cell_ranger, counts for seurat_v3) with {@code var["highly_variable"]} and the statistics they were ranked by,
 * under scanpy's names and dtypes, and sets {@code uns["hvg"]}. The statistics come from per-block sums merged in
 * block order (one pass, two for seurat_v3), so they do not depend on the number of threads.
 */
public final class HighlyVariableGenes {

    private HighlyVariableGenes() {}

    /**
     * On subscription, reads X (one pass; two for seurat_v3), adds the var columns scanpy adds
     * ({@code highly_variable}, {@code means}, {@code dispersions}, {@code dispersions_norm} float32; for seurat_v3
     * {@code highly_variable_rank} float32, {@code means}, {@code variances}, {@code variances_norm}; with a batch key
     * {@code highly_variable_nbatches} int64, and {@code highly_variable_intersection} for the dispersion flavors) and
     * {@code uns["hvg"] = {"flavor": ...}} to a copy of {@code input} (left as it is), and emits the copy.
     */
    public static Mono<AnnData> highlyVariableGenes(
            AnnData input, HighlyVariableGenesOptions options, Streaming streaming) {
        return Mono.defer(() -> {
                    AnnData data = input.copy();
                    BlockSource x = data.x();
                    if (x == null) {
                        throw new IllegalArgumentException("highly_variable_genes needs X; this AnnData has none");
                    }
                    if (options.nTopGenes() > x.nCols()) {
                        // scanpy marks them all without a word; a user asked for a selection
                        streaming.warn("n_top_genes=" + options.nTopGenes() + " is more than the " + x.nCols()
                                + " genes: every gene is marked highly variable");
                    }
                    boolean v3 = options.flavor() == Flavor.SEURAT_V3;
                    Batches batches = options.batchKey() == null
                            ? Batches.none(data.nObs())
                            : Batches.of(data.obs(), options.batchKey(), !v3);
                    Mono<AnnData> done = v3
                            ? seuratV3(data, x, batches, options, streaming)
                            : dispersions(data, x, batches, options, streaming);
                    return done.doOnNext(d -> {
                        Map<String, Object> hvg = new LinkedHashMap<>();
                        hvg.put("flavor", DenseArray.scalar(options.flavor().scanpyName()));
                        d.uns().put("hvg", hvg);
                    });
                })
                .contextWrite(Pass.named("hvg"));
    }

    private static Mono<AnnData> dispersions(
            AnnData data, BlockSource x, Batches batches, HighlyVariableGenesOptions options, Streaming streaming) {
        GeneSums sums = options.flavor() == Flavor.SEURAT
                ? GeneSums.expm1(batches.group, batches.groups(), x.nCols(), (float) LogBase.lnBase(data))
                : GeneSums.values(batches.group, batches.groups(), x.nCols(), streaming.backend());
        Mono<GeneSums.Sums> pass =
                ValueCheck.reduce(data, x, sums, "`highly_variable_genes`", ValueCheck.Expect.FINITE, streaming);
        return pass.map(s -> {
            Dispersions d = options.batchKey() == null
                    ? Dispersions.single(s, options)
                    : Dispersions.batched(s, batches.count, data.var().index(), options);
            Frame var = data.var();
            var.put("highly_variable", ArrayColumn.of(d.highlyVariable));
            var.put("means", ArrayColumn.of(d.means));
            var.put("dispersions", ArrayColumn.of(d.dispersions));
            var.put("dispersions_norm", ArrayColumn.of(toFloat(d.normalized)));
            if (d.nBatches != null) {
                boolean[] intersection = new boolean[d.nBatches.length];
                for (int g = 0; g < intersection.length; g++) {
                    intersection[g] = d.nBatches[g] == batches.count;
                }
                var.put("highly_variable_nbatches", ArrayColumn.of(d.nBatches));
                var.put("highly_variable_intersection", ArrayColumn.of(intersection));
            }
            return data;
        });
    }

    private static Mono<AnnData> seuratV3(
            AnnData data, BlockSource x, Batches batches, HighlyVariableGenesOptions options, Streaming streaming) {
        int nGenes = x.nCols();
        return ValueCheck.reduce(
                        data,
                        x,
                        GeneSums.values(batches.group, batches.groups(), nGenes, streaming.backend()),
                        "`flavor='seurat_v3'`",
                        ValueCheck.Expect.COUNTS,
                        streaming)
                .flatMap(first -> {
                    SeuratV3 fit = new SeuratV3(first, batches, options.span());
                    GeneSums clipped = GeneSums.clipped(batches.group, batches.groups(), nGenes, fit.ceiling());
                    return streaming.reduce(x, clipped).map(second -> fit.select(first, second, options.topGenes()));
                })
                .map(v3 -> {
                    Frame var = data.var();
                    var.put("highly_variable", ArrayColumn.of(v3.highlyVariable));
                    var.put("highly_variable_rank", ArrayColumn.of(v3.rank));
                    var.put("means", ArrayColumn.of(v3.means));
                    var.put("variances", ArrayColumn.of(v3.variances));
                    var.put("variances_norm", ArrayColumn.of(v3.variancesNorm));
                    if (options.batchKey() != null) {
                        var.put("highly_variable_nbatches", ArrayColumn.of(v3.nBatches));
                    }
                    return data;
                });
    }

    private static float[] toFloat(double[] values) {
        float[] out = new float[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (float) values[i];
        }
        return out;
    }
}
