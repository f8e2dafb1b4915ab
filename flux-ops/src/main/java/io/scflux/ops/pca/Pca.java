/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pca;

import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.Pass;
import io.scflux.core.Stage;
import io.scflux.core.StagedSource;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.MissingColumnException;
import io.scflux.core.anndata.Selection;
import io.scflux.ops.values.ValueCheck;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Principal component analysis as scanpy's {@code sc.pp.pca(adata, zero_center=True)}: on the highly variable genes
 * or all, exactly (Gram matrix pass and eigendecomposition) or by randomized subspace iteration for many genes;
 * components signed as scikit-learn signs them. The embedding {@code obsm["X_pca"]} is a lazy dense source that
 * projects X's blocks as it is read (when written, or by {@link DenseArray#materialize}), so it is never held whole.
 */
public final class Pca {

    /** scanpy's default number of components. */
    static final int DEFAULT_COMPS = 50;

    private static final String HVG = "highly_variable";

    private Pca() {}

    /**
     * Computes on subscription and adds, as scanpy does, {@code obsm["X_pca"]} (float32, lazy), {@code varm["PCs"]}
     * (zeros for genes outside the mask, which makes it float64 as in scanpy), {@code uns["pca"]} with
     * {@code params}, {@code variance} and {@code variance_ratio} to a copy of {@code input} (left as it is); then
     * emits the copy.
     */
    public static Mono<AnnData> pca(AnnData input, PcaOptions options, Streaming streaming) {
        return Mono.defer(() -> {
                    AnnData data = input.copy();
                    BlockSource all = data.x();
                    if (all == null) {
                        throw new IllegalArgumentException("pca needs X, and this AnnData has none");
                    }
                    String column = maskColumn(data, options);
                    boolean[] mask = mask(data, column);
                    AnnData used = mask == null ? data : data.subset(Selection.all(), Selection.mask(mask));
                    BlockSource x = mask == null ? all : Objects.requireNonNull(used.x(), "a gene subset keeps X");
                    ValueCheck.Pass pass = ValueCheck.pass(used, "`pca`", ValueCheck.Expect.FINITE, streaming);
                    int p = x.nCols();
                    long n = x.nRows();
                    int k = nComps(options, n, p);
                    boolean exact = switch (options.solver()) {
                        case AUTO -> p <= PcaOptions.EXACT_MAX_FEATURES;
                        case COVARIANCE_EIGH -> true;
                        case RANDOMIZED -> false;
                    };
                    Mono<Components> components = exact
                            ? CovarianceEigh.solve(x, k, streaming, pass)
                            : RandomizedPca.solve(x, k, streaming, pass);
                    return components.map(c -> store(data, all, column, mask, x, c, streaming));
                })
                .contextWrite(Pass.named("pca"));
    }

    /** The bool var column of the genes to use, or null for all (scanpy's {@code _handle_mask_var}). */
    private static @Nullable String maskColumn(AnnData data, PcaOptions options) {
        if (options.maskVar() != null) {
            return options.maskVar();
        }
        Boolean use = options.useHighlyVariable();
        if (Boolean.FALSE.equals(use)) {
            return null;
        }
        boolean has = data.var().has(HVG);
        if (use == null) {
            return has ? HVG : null;
        }
        if (!has) {
            throw new MissingColumnException(
                    "use_highly_variable: var has no column '" + HVG + "' (run highly_variable_genes first)");
        }
        return HVG;
    }

    /** The genes marked by the bool var column {@code column}, or null (all genes) for none. */
    private static boolean @Nullable [] mask(AnnData data, @Nullable String column) {
        if (column == null) {
            return null;
        }
        if (!data.var().has(column)) {
            throw new MissingColumnException("mask_var: var has no column '" + column + "' (columns: "
                    + data.var().columns().keySet() + ")");
        }
        Column c = data.var().column(column);
        if (!(c instanceof ArrayColumn a) || a.dtype() != DType.BOOL) {
            throw new IllegalArgumentException("var['" + column + "'] must be a bool column, found " + c.typeName());
        }
        boolean[] mask = (boolean[]) a.values().data();
        for (boolean b : mask) {
            if (b) {
                return mask;
            }
        }
        throw new IllegalArgumentException("var['" + column + "'] selects no gene");
    }

    private static int nComps(PcaOptions options, long n, int p) {
        long smaller = Math.min(n, p);
        if (options.nComps() == null) {
            int k = (int) (smaller <= DEFAULT_COMPS ? smaller - 1 : DEFAULT_COMPS);
            if (k < 1) {
                throw new IllegalArgumentException("pca of " + n + " cells x " + p + " genes has no component");
            }
            return k;
        }
        if (options.nComps() > smaller) {
            throw new IllegalArgumentException(
                    "n_comps=" + options.nComps() + " must be at most min(n_cells, n_genes)=" + smaller);
        }
        if (n < 2) {
            throw new IllegalArgumentException("pca needs at least 2 cells, got " + n);
        }
        return options.nComps();
    }

    private static AnnData store(
            AnnData data,
            BlockSource allX,
            @Nullable String column,
            boolean @Nullable [] mask,
            BlockSource x,
            Components c,
            Streaming streaming) {
        int k = c.k();
        int p = c.nFeatures();
        // scikit-learn keeps float32 for float32 data and computes in float64 otherwise
        DType fitted = x.dtype() == DType.FLOAT32 ? DType.FLOAT32 : DType.FLOAT64;
        // staged over X itself (the masked genes picked from its blocks, the same values as the selection's), so
        // that the writer makes X_pca in the pass that writes X
        Stage projection = new ProjectionStage(c, streaming.backend(), mask);
        data.putObsm("X_pca", StagedSource.densifying(allX, projection, k, DType.FLOAT32));
        if (mask == null) {
            data.putVarm("PCs", array(fitted, c.loadings(), p, k));
        } else {
            // scanpy fills a float64 zeros array with the (float32 for float32 data) components
            double[] all = new double[data.nVars() * k];
            double[] loadings = c.loadings();
            for (int g = 0, a = 0; g < mask.length; g++) {
                if (mask[g]) {
                    for (int j = 0; j < k; j++) {
                        double v = loadings[a * k + j];
                        all[g * k + j] = fitted == DType.FLOAT32 ? (float) v : v;
                    }
                    a++;
                }
            }
            data.putVarm("PCs", DenseArray.of(DType.FLOAT64, all, data.nVars(), k));
        }
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("zero_center", true);
        params.put("use_highly_variable", HVG.equals(column));
        params.put("mask_var", column);
        Map<String, Object> pca = new LinkedHashMap<>();
        pca.put("params", params);
        pca.put("variance", array(fitted, c.variance(), k));
        pca.put("variance_ratio", array(fitted, c.varianceRatio(), k));
        data.uns().put("pca", pca);
        return data;
    }

    private static DenseArray array(DType type, double[] values, long... shape) {
        if (type == DType.FLOAT64) {
            return DenseArray.of(type, values, shape);
        }
        float[] f = new float[values.length];
        for (int i = 0; i < f.length; i++) {
            f[i] = (float) values[i];
        }
        return DenseArray.of(type, f, shape);
    }
}
