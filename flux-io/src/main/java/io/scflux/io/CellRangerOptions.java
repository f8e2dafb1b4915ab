/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.scflux.core.InvalidOptionException;
import org.jspecify.annotations.Nullable;

/**
 * How a Cell Ranger feature-barcode matrix ({@code .h5}) is read, as scanpy's {@code read_10x_h5(genome, gex_only)}:
 * {@code gexOnly} keeps the "Gene Expression" features only (scanpy's default), {@code genome} (null: all) keeps the
 * features of one genome, and must name one when a Cell Ranger 2 file holds several.
 */
public record CellRangerOptions(boolean gexOnly, @Nullable String genome) {

    private static final CellRangerOptions DEFAULT = new CellRangerOptions(true, null);

    public CellRangerOptions {
        if (genome != null && genome.isEmpty()) {
            throw new InvalidOptionException("genome must be a non-empty name or null");
        }
    }

    /** scanpy's defaults: Gene Expression features of every genome. */
    public static CellRangerOptions defaults() {
        return DEFAULT;
    }

    public CellRangerOptions withAllFeatures() {
        return new CellRangerOptions(false, genome);
    }

    public CellRangerOptions withGenome(String name) {
        return new CellRangerOptions(gexOnly, name);
    }
}
