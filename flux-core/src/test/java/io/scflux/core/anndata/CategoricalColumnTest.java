/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.scflux.core.DType;
import org.junit.jupiter.api.Test;

/** Codes typed int8 are held a byte each, any other type an int each; either way they read, compare and take alike. */
class CategoricalColumnTest {

    private static final DenseArray CATS = DenseArray.of(new String[] {"B", "NK", "T"});

    @Test
    void int8CodesAreHeldAsBytesAndReadAsTheSameCodes() {
        int[] codes = {2, -1, 0, 1, 2};
        CategoricalColumn narrow = new CategoricalColumn(CATS, codes, false, DType.INT8);
        CategoricalColumn wide = new CategoricalColumn(CATS, codes, false, DType.INT32);
        assertEquals(DType.INT8, narrow.codeArray().dtype());
        assertArrayEquals(
                new byte[] {2, -1, 0, 1, 2}, (byte[]) narrow.codeArray().data());
        assertEquals(DType.INT32, wide.codeArray().dtype());
        assertArrayEquals(codes, narrow.codes());
        assertArrayEquals(codes, wide.codes());
        assertEquals("T", narrow.get(0));
        assertNull(narrow.get(1));
        assertEquals(new CategoricalColumn(CATS, codes, false, DType.INT8), narrow);
        assertEquals(new CategoricalColumn(CATS, codes, false, DType.INT8).hashCode(), narrow.hashCode());
        assertArrayEquals(new int[] {1, 2}, narrow.take(new int[] {3, 0}).codes());
        assertEquals(DType.INT8, narrow.take(new int[] {3, 0}).codeArray().dtype());
    }

    @Test
    void bytesAsReadAreHeldAndChecked() {
        byte[] stored = {0, 2, -1};
        CategoricalColumn c = CategoricalColumn.ofInt8(CATS, stored, true);
        assertSame(stored, c.codeArray().data(), "held, not copied");
        assertEquals(2, c.code(1));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> CategoricalColumn.ofInt8(CATS, new byte[] {0, 3}, false));
        assertEquals("code 3 at row 1 outside [-1, 3)", e.getMessage());
    }

    @Test
    void codesTooWideForTheirDeclaredInt8StayInts() {
        String[] many = new String[300];
        for (int i = 0; i < many.length; i++) {
            many[i] = "c" + i;
        }
        CategoricalColumn c = new CategoricalColumn(DenseArray.of(many), new int[] {299, 5}, false, DType.INT8);
        assertEquals(299, c.code(0));
        assertEquals(DType.INT32, c.codeArray().dtype());
    }
}
