package io.scflux.core;

/**
 * Element types of stored arrays, as numpy names them. Unsigned types are held in the Java type of the same width
 * and read back unsigned; strings are variable-length UTF-8.
 */
public enum DType {
    BOOL("bool", 1), INT8("int8", 1), INT16("int16", 2), INT32("int32", 4), INT64("int64", 8),
    UINT8("uint8", 1), UINT16("uint16", 2), UINT32("uint32", 4), UINT64("uint64", 8),
    FLOAT32("float32", 4), FLOAT64("float64", 8), STRING("str", 0);

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
