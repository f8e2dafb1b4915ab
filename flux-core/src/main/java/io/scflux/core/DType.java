/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

/**
 * Element types of stored arrays, as numpy names them. Unsigned types are held in the Java type of the same width
 * and read back unsigned; strings are variable-length UTF-8.
 */
public enum DType {
    BOOL("bool", 1),
    INT8("int8", 1),
    INT16("int16", 2),
    INT32("int32", 4),
    INT64("int64", 8),
    UINT8("uint8", 1),
    UINT16("uint16", 2),
    UINT32("uint32", 4),
    UINT64("uint64", 8),
    FLOAT32("float32", 4),
    FLOAT64("float64", 8),
    STRING("str", 0);

    private final String numpyName;
    private final int size;

    DType(String numpyName, int size) {
        this.numpyName = numpyName;
        this.size = size;
    }

    /** The numpy name ({@code float32}, {@code int64}, {@code str}). */
    public String numpyName() {
        return numpyName;
    }

    /** Bytes per element, 0 for strings. */
    public int size() {
        return size;
    }

    public boolean isInteger() {
        return this != FLOAT32 && this != FLOAT64 && this != STRING && this != BOOL;
    }

    public boolean isUnsigned() {
        return this == UINT8 || this == UINT16 || this == UINT32 || this == UINT64;
    }

    public boolean isFloat() {
        return this == FLOAT32 || this == FLOAT64;
    }

    public boolean isNumeric() {
        return this != STRING;
    }

    /**
     * The type numpy gives an array that holds values of both types ({@code numpy.result_type}): what concatenating
     * them yields. Booleans give way to numbers; a signed and an unsigned integer meet in the next wider signed type
     * (float64 past int64); an integer of more than 16 bits with float32 gives float64.
     */
    public static DType promote(DType a, DType b) {
        if (a == b) {
            return a;
        }
        if (a == STRING || b == STRING) {
            throw new IllegalArgumentException("no common type for " + a + " and " + b);
        }
        if (a == BOOL || b == BOOL) {
            return a == BOOL ? b : a;
        }
        if (a.isFloat() || b.isFloat()) {
            DType f = a.isFloat() ? a : b;
            DType other = f == a ? b : a;
            boolean wide = f == FLOAT64 || other == FLOAT64 || (!other.isFloat() && other.size > 2);
            return wide ? FLOAT64 : FLOAT32;
        }
        if (a.isUnsigned() == b.isUnsigned()) {
            return a.size >= b.size ? a : b;
        }
        DType signed = a.isUnsigned() ? b : a;
        DType unsigned = signed == a ? b : a;
        if (signed.size > unsigned.size) {
            return signed;
        }
        switch (unsigned) {
            case UINT8:
                return INT16;
            case UINT16:
                return INT32;
            case UINT32:
                return INT64;
            default:
                return FLOAT64;
        }
    }

    /** The type for a numpy name, or an exception naming it. */
    public static DType ofNumpy(String name) {
        for (DType t : values()) {
            if (t.numpyName.equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown dtype " + name);
    }

    @Override
    public String toString() {
        return numpyName;
    }
}
