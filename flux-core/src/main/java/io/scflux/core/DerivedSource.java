/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import org.jspecify.annotations.Nullable;

/**
 * A source whose blocks are computed from another's as they are read (a stage over a source, a step's lazy view such
 * as the normalized matrix), never stored itself. The container asks it for a selection, so that a view keeps what
 * it was computed with (slicing a normalized matrix keeps its size factors), and for what it is computed from, so that
 * stored data (raw counts) are told from computed ones; writers compute its blocks rather than copy a file.
 */
public interface DerivedSource extends BlockSource {

    /**
     * What the blocks are computed from.
     *
     * @return the source read
     */
    BlockSource base();

    /**
     * The rows and columns selected (positions in this source, any order, null for all), as the same computation on
     * the selection: by default the computed blocks subset, which a view may refine (keeping its statistics).
     *
     * @param rows the rows selected, or null for all
     * @param cols the columns selected, or null for all
     * @return the selection
     */
    default BlockSource select(int @Nullable [] rows, int @Nullable [] cols) {
        return new SubsetSource(this, rows, cols);
    }
}
