/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.scflux.core.DType;
import io.scflux.core.ExactValues;
import io.scflux.core.RowBlock;
import org.jspecify.annotations.Nullable;

/**
 * Which values an integer dtype holds: whole numbers within its range. A writer asks before handing values to the
 * HDF5 library, whose conversion (as numpy's cast) would wrap or saturate the others without a word.
 */
final class ValueRange {

    private static final double TWO_63 = 0x1p63;
    private static final double TWO_64 = 0x1p64;

    private ValueRange() {}

    /**
     * {@code block}, once it is checked that an integer {@code type} holds every value of it (no fraction, none out
     * of its range); else fails naming the entry: numpy would wrap such a value, and the file would then hold another
     * number. A floating {@code type} holds them all.
     *
     * @param type the type the values are stored as
     * @param block the block to be written
     * @param path the element, for the message
     * @return {@code block}
     */
    static RowBlock requireHeld(DType type, RowBlock block, String path) {
        if (!type.isInteger()) {
            return block;
        }
        int bad = firstNotHeld(type, block.values(), block.exact(), block.nnz());
        if (bad >= 0) {
            int row = 0;
            while (block.indptr()[row + 1] <= bad) {
                row++;
            }
            throw new IllegalArgumentException(path + ": the value " + describe(block.values(), block.exact(), bad)
                    + " at row " + (block.rowStart() + row) + ", column " + block.indices()[bad]
                    + " cannot be stored as " + type.numpyName() + ", the matrix's dtype (it would become another "
                    + "number): give the matrix a wider or floating dtype first");
        }
        return block;
    }

    /**
     * The first of the {@code n} entries that {@code type} (an integer type) cannot hold, or -1: {@code stored} where
     * not null, else {@code floats}.
     */
    static int firstNotHeld(DType type, float[] floats, @Nullable ExactValues stored, int n) {
        if (stored == null) {
            if (type == DType.INT32 && heldAsInt32(floats, n)) {
                return -1;
            }
            for (int k = 0; k < n; k++) {
                if (!holds(type, floats[k])) {
                    return k;
                }
            }
            return -1;
        }
        // rare (values float32 does not hold), so one loop through the accessors
        boolean integers = stored.dtype() != DType.FLOAT64;
        boolean unsigned = stored.dtype() == DType.UINT64;
        for (int k = 0; k < n; k++) {
            if (integers ? !holds(type, stored.longAt(k), unsigned) : !holds(type, stored.doubleAt(k))) {
                return k;
            }
        }
        return -1;
    }

    /**
     * Whether int32 holds each of {@code floats[0, n)}: the common case (counts read as floats, written back as int32)
     * in one pass without a branch, on the writer's own thread, so that it costs about a cast per value. A value is
     * held when its cast gives it back and is not the cast's ceiling (2^31 and more saturate to Integer.MAX_VALUE,
     * which no float equals); a fraction, NaN or a value below -2^31 does not give itself back.
     */
    private static boolean heldAsInt32(float[] floats, int n) {
        boolean bad = false;
        for (int k = 0; k < n; k++) {
            float v = floats[k];
            int i = (int) v;
            bad |= i != v | i == Integer.MAX_VALUE;
        }
        return !bad;
    }

    /** Whether {@code type} holds {@code v}: a whole number within its range (never NaN or an infinity). */
    static boolean holds(DType type, double v) {
        if (v != Math.rint(v)) {
            return false;
        }
        return switch (type) {
            case INT64 -> v >= -TWO_63 && v < TWO_63;
            case UINT64 -> v >= 0 && v < TWO_64;
            default -> v >= min(type) && v <= max(type);
        };
    }

    /** Whether {@code type} holds {@code v}, read as unsigned 64-bit when {@code unsigned}. */
    static boolean holds(DType type, long v, boolean unsigned) {
        if (unsigned && v < 0) {
            return type == DType.UINT64;
        }
        return switch (type) {
            case INT64 -> true;
            case UINT64 -> v >= 0;
            default -> v >= (long) min(type) && v <= (long) max(type);
        };
    }

    private static double min(DType type) {
        return switch (type) {
            case INT8 -> Byte.MIN_VALUE;
            case INT16 -> Short.MIN_VALUE;
            case INT32 -> Integer.MIN_VALUE;
            case BOOL, UINT8, UINT16, UINT32 -> 0;
            default -> throw new IllegalArgumentException("not a narrow integer type: " + type);
        };
    }

    private static double max(DType type) {
        return switch (type) {
            case INT8 -> Byte.MAX_VALUE;
            case INT16 -> Short.MAX_VALUE;
            case INT32 -> Integer.MAX_VALUE;
            case BOOL -> 1;
            case UINT8 -> 0xff;
            case UINT16 -> 0xffff;
            case UINT32 -> 0xffffffffL;
            default -> throw new IllegalArgumentException("not a narrow integer type: " + type);
        };
    }

    /** Entry {@code k}'s value as the message shows it: as stored where it is. */
    static String describe(float[] floats, @Nullable ExactValues stored, int k) {
        if (stored == null) {
            return Float.toString(floats[k]);
        }
        return switch (stored.dtype()) {
            case FLOAT64 -> Double.toString(stored.doubleAt(k));
            case UINT64 -> Long.toUnsignedString(stored.longAt(k));
            default -> Long.toString(stored.longAt(k));
        };
    }
}
