/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.scflux.core.DType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

/**
 * One chunk of a 1-D unfiltered dataset gathered in native memory as the file stores it (little-endian, the file's
 * element type), for {@code H5Dwrite_chunk}: appended values are copied in once, where {@code H5Dwrite} copies them
 * into a staging buffer, then into HDF5's chunk cache, then out to the file.
 */
final class WholeChunks {

    /** How {@link NativeHdf5} fills {@code n} elements at {@code at}, from element {@code offset} of what it appends. */
    @FunctionalInterface
    interface Filler {
        void fill(int at, int offset, int n);
    }

    private final DType type;
    private final int elements;
    private final BytePointer memory;
    private final ByteBuffer bytes;
    private int filled;

    WholeChunks(DType type, long elements) {
        this.type = type;
        this.elements = Math.toIntExact(elements);
        this.memory = new BytePointer((long) this.elements * type.size());
        this.bytes = memory.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Whether a dataset of {@code type} can be written this way on this machine (its order is the file's). */
    static boolean canHold(DType type) {
        return ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN
                && (type == DType.FLOAT32 || type == DType.FLOAT64 || type == DType.INT32 || type == DType.INT64);
    }

    /** Whether {@code data} (a Java array) can be put here: the same type, or ints into int64, floats into float64. */
    boolean takes(Object data) {
        return switch (type) {
            case FLOAT32 -> data instanceof float[];
            case FLOAT64 -> data instanceof double[] || data instanceof float[];
            case INT32 -> data instanceof int[];
            case INT64 -> data instanceof long[] || data instanceof int[];
            default -> false;
        };
    }

    int elements() {
        return elements;
    }

    int filled() {
        return filled;
    }

    int room() {
        return elements - filled;
    }

    /** Elements {@code [from, from + n)} of {@code data} at element {@code at}, ints plus {@code add}. */
    void put(int at, Object data, int from, int n, long add) {
        if (data instanceof float[] v && type == DType.FLOAT32) {
            floats().put(at, v, from, n);
        } else if (data instanceof int[] v && type == DType.INT32) {
            IntBuffer b = ints();
            if (add == 0) {
                b.put(at, v, from, n);
            } else {
                for (int i = 0; i < n; i++) {
                    b.put(at + i, Math.toIntExact(v[from + i] + add));
                }
            }
        } else if (data instanceof double[] v) {
            doubles().put(at, v, from, n);
        } else if (data instanceof long[] v) {
            longs().put(at, v, from, n);
        } else if (data instanceof float[] v) {
            DoubleBuffer d = doubles();
            for (int i = 0; i < n; i++) {
                d.put(at + i, v[from + i]);
            }
        } else {
            int[] v = (int[]) data;
            LongBuffer l = longs();
            for (int i = 0; i < n; i++) {
                l.put(at + i, v[from + i] + add);
            }
        }
    }

    void added(int n) {
        filled += n;
    }

    /** The chunk's bytes: always a whole chunk, the elements past {@link #filled} zero. */
    long bytes() {
        return (long) elements * type.size();
    }

    /** The chunk, its unfilled tail zeroed. */
    Pointer padded() {
        for (int b = filled * type.size(); b < bytes.capacity(); b++) {
            bytes.put(b, (byte) 0);
        }
        return memory;
    }

    void clear() {
        filled = 0;
    }

    void free() {
        memory.close();
    }

    private FloatBuffer floats() {
        return bytes.asFloatBuffer();
    }

    private IntBuffer ints() {
        return bytes.asIntBuffer();
    }

    private DoubleBuffer doubles() {
        return bytes.asDoubleBuffer();
    }

    private LongBuffer longs() {
        return bytes.asLongBuffer();
    }
}
