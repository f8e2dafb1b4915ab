/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import io.scflux.core.BlockSource;
import io.scflux.core.SubsetSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * {@code adata.raw}: the matrix kept before genes were filtered, with its own var (and varm). It shares the
 * container's cells, not its genes. As scanpy's {@code adata.raw = adata}, it holds X as it was then: the counts, or
 * a lazy view (log-normalized values) that is read, never copied, when raw is.
 */
public record Raw(BlockSource x, Frame var, Map<String, Object> varm) {

    public Raw {
        Objects.requireNonNull(x, "raw X");
        Objects.requireNonNull(var, "raw var");
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
