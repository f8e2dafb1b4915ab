/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.values;

import io.scflux.core.BlockSource;
import io.scflux.core.anndata.AnnData;

/**
 * The matrix an operator reads: the container's X, or an error saying it has none. Public because every step, each in
 * its own package, starts from it.
 */
public final class XMatrix {

    private XMatrix() {}

    public static BlockSource of(AnnData data) {
        BlockSource x = data.x();
        if (x == null) {
            throw new IllegalArgumentException("the container has no X");
        }
        return x;
    }
}
