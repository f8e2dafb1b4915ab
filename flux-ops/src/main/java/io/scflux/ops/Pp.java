/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.ops.concat.Concat;
import io.scflux.ops.concat.ConcatOptions;
import io.scflux.ops.filter.Filter;
import io.scflux.ops.filter.FilterOptions;
import io.scflux.ops.hvg.HighlyVariableGenes;
import io.scflux.ops.hvg.HighlyVariableGenesOptions;
import io.scflux.ops.log1p.Log1p;
import io.scflux.ops.log1p.Log1pOptions;
import io.scflux.ops.neighbors.Neighbors;
import io.scflux.ops.neighbors.NeighborsOptions;
import io.scflux.ops.normalize.NormalizeTotal;
import io.scflux.ops.normalize.NormalizeTotalOptions;
import io.scflux.ops.pca.Pca;
import io.scflux.ops.pca.PcaOptions;
import io.scflux.ops.pseudobulk.Pseudobulk;
import io.scflux.ops.pseudobulk.PseudobulkOptions;
import io.scflux.ops.qc.QcMetrics;
import io.scflux.ops.qc.QcMetricsOptions;
import io.scflux.ops.scale.Scale;
import io.scflux.ops.scale.ScaleOptions;
import reactor.core.publisher.Mono;

/**
 * scanpy's {@code sc.pp} on a scflux {@link AnnData}: each step is a cold {@code Mono} that computes on subscription,
 * streaming X with {@code streaming}, and emits a new container holding what scanpy would have added in place, sharing
 * what did not change with the one it was given, which it leaves as it is ({@link AnnData#copy}): subscribing twice
 * gives the same result. Steps chain with {@code flatMap}. Results do not depend on the thread count. A step names
 * its passes over X ({@link io.scflux.core.Pass}) by its name in scanpy, short: {@code filter_cells}, {@code qc} (also
 * the QC that {@link #preprocess} fuses), {@code normalize}, {@code hvg}, {@code pca}, {@code scale}...
 */
public final class Pp {

    private Pp() {}

    /**
     * {@code sc.pp.filter_cells} with one criterion: the cells that pass, obs {@code n_counts} or {@code n_genes}
     * added; a lazy selection of {@code data} (X is read once to count, then only when written). See {@link Filter}.
     */
    public static Mono<AnnData> filterCells(AnnData data, FilterOptions options, Streaming streaming) {
        return Filter.cells(data, options, streaming);
    }

    /**
     * {@code sc.pp.filter_genes} with one criterion: the genes that pass, var {@code n_counts} or {@code n_cells}
     * added; a lazy selection of {@code data}, as {@link #filterCells}.
     */
    public static Mono<AnnData> filterGenes(AnnData data, FilterOptions options, Streaming streaming) {
        return Filter.genes(data, options, streaming);
    }

    /** {@code sc.pp.calculate_qc_metrics}: see {@link QcMetrics}. */
    public static Mono<AnnData> calculateQcMetrics(AnnData data, QcMetricsOptions options, Streaming streaming) {
        return QcMetrics.calculate(data, options, streaming);
    }

    /** {@code sc.pp.normalize_total}: X becomes a lazy normalized view; see {@link NormalizeTotal}. */
    public static Mono<AnnData> normalizeTotal(AnnData data, NormalizeTotalOptions options, Streaming streaming) {
        return NormalizeTotal.normalize(data, options, streaming);
    }

    /** {@code sc.pp.log1p}: see {@link Log1p}. */
    public static Mono<AnnData> log1p(AnnData data, Log1pOptions options, Streaming streaming) {
        return Log1p.log1p(data, options, streaming);
    }

    /**
     * QC, normalize_total and log1p in one pass over X, with a target sum the QC columns pending until that pass
     * ({@link AnnData#complete}): see {@link Preprocess}.
     */
    public static Mono<AnnData> preprocess(AnnData data, PreprocessOptions options, Streaming streaming) {
        return Preprocess.preprocess(data, options, streaming);
    }

    /** {@code sc.pp.highly_variable_genes}: see {@link HighlyVariableGenes}. */
    public static Mono<AnnData> highlyVariableGenes(
            AnnData data, HighlyVariableGenesOptions options, Streaming streaming) {
        return HighlyVariableGenes.highlyVariableGenes(data, options, streaming);
    }

    /** {@code sc.pp.pca}: see {@link Pca}. */
    public static Mono<AnnData> pca(AnnData data, PcaOptions options, Streaming streaming) {
        return Pca.pca(data, options, streaming);
    }

    /**
     * scanpy's {@code pp.neighbors}: {@link Neighbors#neighbors}.
     *
     * @param data      the container, with obsm {@code X_pca} (or the representation {@code use_rep} names)
     * @param options   scanpy's parameters
     * @param streaming the workers the search runs on
     * @return a cold Mono of a new container with obsp {@code distances}, {@code connectivities} and uns
     *     {@code neighbors}
     */
    public static Mono<AnnData> neighbors(AnnData data, NeighborsOptions options, Streaming streaming) {
        return Neighbors.neighbors(data, options, streaming);
    }

    /** {@code sc.pp.scale}: see {@link Scale}. */
    public static Mono<AnnData> scale(AnnData data, ScaleOptions options, Streaming streaming) {
        return Scale.scale(data, options, streaming);
    }

    /** decoupler's {@code dc.pp.pseudobulk}, a new container of (group, sample) rows: see {@link Pseudobulk}. */
    public static Mono<AnnData> pseudobulk(AnnData data, PseudobulkOptions options, Streaming streaming) {
        return Pseudobulk.pseudobulk(data, options, streaming);
    }

    /**
     * anndata's {@code concat} along obs, a new container whose X re-indexes each input's blocks as they are read:
     * see {@link Concat}.
     */
    public static Mono<AnnData> concat(java.util.List<AnnData> inputs, ConcatOptions options) {
        return Mono.fromCallable(() -> Concat.concat(inputs, options));
    }

    /**
     * The standard pipeline: {@link #preprocess} (QC with the qc variables given, normalize_total, log1p) with its
     * columns put before the next step ({@link AnnData#complete}: QC's own pass with a target sum), seurat highly
     * variable genes, and PCA on them. X ends log-normalized (a lazy view over the counts).
     */
    public static Mono<AnnData> pipeline(
            AnnData data,
            PreprocessOptions preprocess,
            HighlyVariableGenesOptions hvg,
            PcaOptions pca,
            Streaming streaming) {
        return preprocess(data, preprocess, streaming)
                .flatMap(AnnData::complete)
                .flatMap(d -> highlyVariableGenes(d, hvg, streaming))
                .flatMap(d -> pca(d, pca.withUseHighlyVariable(true), streaming));
    }
}
