/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.moments;

import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.DenseArray;
import java.util.Map;

/**
 * The base that log1p recorded in {@code uns["log1p"]}, read back by the steps that undo the log (HVG's seurat
 * flavors, rank_genes_groups' fold changes). It lives beside {@link Expm1}, below those steps, so that they need not
 * see the log1p step itself.
 */
public final class LogBase {

    private LogBase() {}

    /**
     * What log data of {@code data} are multiplied by before {@code expm1} undoes the log, as scanpy does:
     * {@code ln(base)} when {@code uns["log1p"]["base"]} is set, else 1.
     *
     * @param data a container whose X holds log data
     * @return the factor ({@code ln(base)}, or 1)
     */
    public static double lnBase(AnnData data) {
        if (data.uns().get("log1p") instanceof Map<?, ?> log1p
                && log1p.get("base") instanceof DenseArray base
                && base.size() == 1
                && base.dtype().isNumeric()) {
            return Math.log(base.getDouble(0));
        }
        return 1;
    }
}
