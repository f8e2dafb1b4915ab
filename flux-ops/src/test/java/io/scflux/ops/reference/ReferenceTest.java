/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The references and the oracle's input are where the operator tests expect them. */
class ReferenceTest {

    @Test
    void referencesLoad() {
        assertEquals(3000, Reference.counts().nObs());
        assertEquals(3000, Reference.csv("qc_obs").size());
        assertEquals(2000, Reference.csv("hvg_seurat").size());
        assertEquals(48, Reference.h5ad("pseudobulk_sum").nObs());
        assertEquals(30, Reference.csv("pca_variance").size());
    }
}
