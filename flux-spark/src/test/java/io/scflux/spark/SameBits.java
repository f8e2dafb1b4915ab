/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.scflux.core.BlockSource;
import io.scflux.core.RowBlock;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import java.util.List;
import java.util.Map;

/**
 * Asserts that two results are the same bits: every float and double compared by its raw bits, every array, column,
 * frame, mapping and matrix (read block by block) in full.
 */
final class SameBits {

    private SameBits() {}

    static void assertSameBits(AnnData expected, AnnData actual) {
        assertSame(expected.obs(), actual.obs(), "obs");
        assertSame(expected.var(), actual.var(), "var");
        assertSame(expected.uns(), actual.uns(), "uns");
        assertSame(expected.obsm(), actual.obsm(), "obsm");
        assertSame(expected.varm(), actual.varm(), "varm");
        assertSame(expected.layers(), actual.layers(), "layers");
        assertSame(expected.x(), actual.x(), "X");
    }

    static void assertSame(Object expected, Object actual, String where) {
        if (expected == null || actual == null) {
            assertEquals(expected, actual, where);
        } else if (expected instanceof Frame e && actual instanceof Frame a) {
            assertArrayEquals(e.index(), a.index(), where + " index");
            assertSame(e.columns(), a.columns(), where);
        } else if (expected instanceof Map<?, ?> e && actual instanceof Map<?, ?> a) {
            assertEquals(List.copyOf(e.keySet()), List.copyOf(a.keySet()), where + " keys");
            for (Object key : e.keySet()) {
                assertSame(e.get(key), a.get(key), where + "/" + key);
            }
        } else if (expected instanceof ArrayColumn e && actual instanceof ArrayColumn a) {
            assertSame(e.values(), a.values(), where);
        } else if (expected instanceof DenseArray e && actual instanceof DenseArray a) {
            assertEquals(e.dtype(), a.dtype(), where + " dtype");
            assertArrayEquals(e.shape(), a.shape(), where + " shape");
            if (e.dtype() == io.scflux.core.DType.STRING) {
                assertArrayEquals(e.strings(), a.strings(), where);
            } else {
                assertSameData(e.data(), a.data(), where);
            }
        } else if (expected instanceof BlockSource e && actual instanceof BlockSource a) {
            assertEquals(e.nRows(), a.nRows(), where + " rows");
            assertEquals(e.nCols(), a.nCols(), where + " columns");
            assertEquals(e.dtype(), a.dtype(), where + " dtype");
            List<RowBlock> eb = e.blocks().collectList().block();
            List<RowBlock> ab = a.blocks().collectList().block();
            assertEquals(eb.size(), ab.size(), where + " blocks");
            for (int i = 0; i < eb.size(); i++) {
                assertEquals(eb.get(i).rowStart(), ab.get(i).rowStart(), where + " block " + i);
                assertArrayEquals(eb.get(i).indptr(), ab.get(i).indptr(), where + " block " + i + " indptr");
                assertArrayEquals(eb.get(i).indices(), ab.get(i).indices(), where + " block " + i + " indices");
                assertSameData(eb.get(i).values(), ab.get(i).values(), where + " block " + i + " values");
            }
        } else if (expected instanceof Column e && actual instanceof Column a) {
            assertEquals(e.typeName(), a.typeName(), where + " type");
            assertEquals(e.size(), a.size(), where + " size");
            for (int i = 0; i < e.size(); i++) {
                assertEquals(e.get(i), a.get(i), where + "[" + i + "]");
            }
        } else if (expected.getClass().isArray()) {
            assertSameData(expected, actual, where);
        } else {
            assertEquals(expected, actual, where);
        }
    }

    private static void assertSameData(Object expected, Object actual, String where) {
        if (expected instanceof double[] e && actual instanceof double[] a) {
            assertEquals(e.length, a.length, where + " length");
            for (int i = 0; i < e.length; i++) {
                if (Double.doubleToRawLongBits(e[i]) != Double.doubleToRawLongBits(a[i])) {
                    fail(where + "[" + i + "]: expected " + e[i] + ", found " + a[i]);
                }
            }
        } else if (expected instanceof float[] e && actual instanceof float[] a) {
            assertEquals(e.length, a.length, where + " length");
            for (int i = 0; i < e.length; i++) {
                if (Float.floatToRawIntBits(e[i]) != Float.floatToRawIntBits(a[i])) {
                    fail(where + "[" + i + "]: expected " + e[i] + ", found " + a[i]);
                }
            }
        } else if (expected instanceof int[] e && actual instanceof int[] a) {
            assertArrayEquals(e, a, where);
        } else if (expected instanceof long[] e && actual instanceof long[] a) {
            assertArrayEquals(e, a, where);
        } else if (expected instanceof boolean[] e && actual instanceof boolean[] a) {
            assertArrayEquals(e, a, where);
        } else if (expected instanceof Object[] e && actual instanceof Object[] a) {
            assertArrayEquals(e, a, where);
        } else {
            assertEquals(expected, actual, where);
        }
    }
}
