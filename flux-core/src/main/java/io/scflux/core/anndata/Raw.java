/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import io.scflux.core.BlockSource;
import io.scflux.core.DerivedSource;
import io.scflux.core.SubsetSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * {@code adata.raw}: the counts kept before genes were filtered, with their own var (and varm). It shares the
 * container's cells, not its genes. Raw holds counts only, never a lazy view.
 */
public record Raw(BlockSource x, Frame var, Map<String, Object> varm) {

    public Raw {
        Objects.requireNonNull(x, "raw X");
        Objects.requireNonNull(var, "raw var");
        if (x instanceof DerivedSource) {
            throw new IllegalArgumentException("raw holds counts, not a view (" + x.describe()
                    + "); set raw before normalizing, or pass the view's base()");
        }
        if (x.nCols() != var.size()) {
            throw new IllegalArgumentException("raw X has " + x.nCols() + " columns, raw var " + var.size() + " rows");
        }
        varm = new LinkedHashMap<>(varm == null ? Map.of() : varm);
    }

    public Raw(BlockSource x, Frame var) {
        this(x, var, Map.of());
    }

    /** The selected cells' raw counts, all genes kept. */
    Raw rows(int @Nullable [] rows) {
        return rows == null ? this : new Raw(new SubsetSource(x, rows, null), var, varm);
    }
}
