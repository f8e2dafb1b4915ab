/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.DType;
import org.junit.jupiter.api.Test;

/** A computed column reads as the held column of the same values, in every way a column is read. */
class ArrayColumnTest {

    private static final double[] TOTALS = {3, 0, 1e8 + 1, 0.1, 7.25};

    private static ArrayColumn log1p(DType type) {
        return ArrayColumn.computed(type, TOTALS.length, i -> Math.log1p(TOTALS[i]));
    }

    /** The same values worked out here, element by element, as numpy would store them. */
    private static ArrayColumn held(DType type) {
        if (type == DType.FLOAT32) {
            float[] out = new float[TOTALS.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = (float) Math.log1p(TOTALS[i]);
            }
            return ArrayColumn.of(out);
        }
        double[] out = new double[TOTALS.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = Math.log1p(TOTALS[i]);
        }
        return ArrayColumn.of(out);
    }

    @Test
    void computedFloat32ValuesAreRoundedAsAFloat32ArrayHoldsThem() {
        ArrayColumn c = log1p(DType.FLOAT32);
        assertTrue(c.isComputed());
        assertFalse(held(DType.FLOAT32).isComputed());
        assertEquals(DType.FLOAT32, c.dtype());
        assertEquals("float32", c.typeName());
        assertEquals(TOTALS.length, c.size());
        assertArrayEquals((float[]) held(DType.FLOAT32).values().data(), (float[])
                c.values().data());
        for (int i = 0; i < TOTALS.length; i++) {
            assertEquals((float) Math.log1p(TOTALS[i]), c.get(i), "row " + i);
            assertEquals((double) (float) Math.log1p(TOTALS[i]), c.getDouble(i), "row " + i);
        }
        assertNotEquals(Math.log1p(TOTALS[2]), c.getDouble(2), "the float64 value is not what a float32 column holds");
    }

    @Test
    void computedFloat64ValuesAreTheFunctionsOwn() {
        ArrayColumn c = log1p(DType.FLOAT64);
        assertEquals("float64", c.typeName());
        assertArrayEquals((double[]) held(DType.FLOAT64).values().data(), (double[])
                c.values().data());
        assertEquals(Math.log1p(TOTALS[3]), c.get(3));
    }

    @Test
    void takeEqualsAndHashAgreeWithTheHeldColumn() {
        for (DType type : new DType[] {DType.FLOAT32, DType.FLOAT64}) {
            ArrayColumn computed = log1p(type);
            ArrayColumn held = held(type);
            assertEquals(held, computed);
            assertEquals(computed, held);
            assertEquals(held.hashCode(), computed.hashCode());
            int[] rows = {4, 0, 4, 2};
            ArrayColumn taken = computed.take(rows);
            assertFalse(taken.isComputed(), "a taken column holds its rows");
            assertEquals(held.take(rows), taken);
            assertNotEquals(held(type == DType.FLOAT32 ? DType.FLOAT64 : DType.FLOAT32), computed, "dtype counts");
        }
        assertEquals(ArrayColumn.of(new float[0]), ArrayColumn.computed(DType.FLOAT32, 0, i -> 1 / 0.0));
    }

    @Test
    void rowsOutsideTheColumnAndTypesOtherThanFloatAreRefused() {
        ArrayColumn c = log1p(DType.FLOAT64);
        assertThrows(IndexOutOfBoundsException.class, () -> c.get(TOTALS.length));
        assertThrows(IndexOutOfBoundsException.class, () -> c.getDouble(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> c.take(new int[] {0, 5}));
        assertEquals(
                "a computed column is float32 or float64, not int64",
                assertThrows(IllegalArgumentException.class, () -> ArrayColumn.computed(DType.INT64, 2, i -> i))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> ArrayColumn.computed(DType.FLOAT32, -1, i -> i));
    }
}
