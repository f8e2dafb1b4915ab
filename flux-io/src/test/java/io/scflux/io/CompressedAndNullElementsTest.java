/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.DenseArray;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Metadata stored with filters jhdf cannot decode alone (lzf-compressed strings), and anndata 0.11+'s {@code null}
 * elements (X or raw set to None, None in uns).
 */
class CompressedAndNullElementsTest {

    @Test
    void lzfCompressedStringsReadLikeUncompressedOnes() {
        // Both written by anndata 0.8 from the same 100 cells: one with lzf on every dataset, one without filters.
        AnnData lzf = H5ad.read(Fixtures.path("x-dense-lzf.h5ad"));
        AnnData plain = H5ad.read(Fixtures.path("x-csr-anndata08.h5ad"));
        assertArrayEquals(plain.obs().index(), lzf.obs().index());
        assertArrayEquals(plain.var().index(), lzf.var().index());
        assertEquals(plain.obs().columns().keySet(), lzf.obs().columns().keySet());
        for (String c : plain.obs().columns().keySet()) {
            assertEquals(plain.obs().column(c), lzf.obs().column(c), c);
        }
        assertEquals(plain.var().column("gene_ids"), lzf.var().column("gene_ids"));
        CategoricalColumn cellType = (CategoricalColumn) lzf.obs().column("cell_type");
        assertEquals(8, cellType.categories().size());
        assertTrue(lzf.obs().index()[0].endsWith("-1"));
    }

    @Test
    void nullElementsMeanAbsent() {
        checkNulls(H5ad.read(Fixtures.path("nulls-anndata012.h5ad")));
    }

    @Test
    void nullsAreLeftOutWhenWritten(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        java.nio.file.Path out = dir.resolve("again.h5ad");
        H5ad.write(H5ad.read(Fixtures.path("nulls-anndata012.h5ad")), out).block();
        AnnData again = H5ad.read(out);
        @SuppressWarnings("unchecked")
        Map<String, Object> params = (Map<String, Object>) again.uns().get("params");
        assertEquals(java.util.Set.of("zero_center"), params.keySet());
    }

    private static void checkNulls(AnnData a) {
        assertNull(a.x());
        assertNull(a.raw());
        assertEquals(3, a.nObs());
        assertEquals(2, a.nVars());
        @SuppressWarnings("unchecked")
        Map<String, Object> params = (Map<String, Object>) a.uns().get("params");
        assertTrue(params.containsKey("mask_var"));
        assertNull(params.get("mask_var"));
        assertEquals(DenseArray.scalar(true), params.get("zero_center"));
    }
}
