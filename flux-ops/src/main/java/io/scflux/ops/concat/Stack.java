/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.concat;

import io.scflux.core.DType;
import io.scflux.core.anndata.DenseArray;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Dense arrays stacked along their first axis in one type, as {@code np.concatenate} stacks them: values converted to
 * numpy's promotion of the parts' types, a missing part (null) filled with NaN in a float result, else zero.
 */
final class Stack {

    private Stack() {}

    /** numpy's promotion of the types of the parts that are present. */
    static DType type(List<DenseArray> parts) {
        DType t = null;
        for (DenseArray a : parts) {
            if (a != null) {
                t = t == null ? a.dtype() : DType.promote(t, a.dtype());
            }
        }
        if (t == null) {
            throw new IllegalArgumentException("nothing to stack");
        }
        return t;
    }

    /** The parts (null where missing) of {@code lengths[i]} rows each, stacked as {@code type}. */
    static DenseArray rows(DType type, List<DenseArray> parts, int[] lengths) {
        long[] trailing = null;
        for (DenseArray a : parts) {
            if (a != null) {
                long[] t = Arrays.copyOfRange(a.shape(), 1, a.ndim());
                if (trailing != null && !Arrays.equals(trailing, t)) {
                    throw new IllegalArgumentException("cannot stack arrays of shapes " + Arrays.toString(trailing)
                            + " and " + Arrays.toString(t) + " after the first axis");
                }
                trailing = t;
            }
        }
        // Stack.type, which every caller asks first, refuses a stack of nothing but missing parts
        long[] rowShape = Objects.requireNonNull(trailing, "nothing to stack");
        int stride = 1;
        for (long d : rowShape) {
            stride = Math.multiplyExact(stride, (int) d);
        }
        int n = 0;
        for (int len : lengths) {
            n += len;
        }
        Object out = java.lang.reflect.Array.newInstance(
                DenseArray.javaType(type).getComponentType(), Math.multiplyExact(n, stride));
        int at = 0;
        for (int p = 0; p < parts.size(); p++) {
            DenseArray a = parts.get(p);
            int size = lengths[p] * stride;
            if (a == null) {
                fillMissing(out, type, at, at + size);
            } else if (a.dtype() == type) {
                System.arraycopy(a.data(), 0, out, at, size);
            } else {
                for (int j = 0; j < size; j++) {
                    set(out, type, at + j, a, j);
                }
            }
            at += size;
        }
        long[] shape = new long[rowShape.length + 1];
        shape[0] = n;
        System.arraycopy(rowShape, 0, shape, 1, rowShape.length);
        return DenseArray.of(type, out, shape);
    }

    private static void fillMissing(Object out, DType type, int from, int to) {
        if (type == DType.FLOAT64) {
            Arrays.fill((double[]) out, from, to, Double.NaN);
        } else if (type == DType.FLOAT32) {
            Arrays.fill((float[]) out, from, to, Float.NaN);
        }
    }

    /** Element {@code j} of {@code src} converted to {@code type} into {@code out[i]} (a wider or equal type). */
    private static void set(Object out, DType type, int i, DenseArray src, int j) {
        switch (type) {
            case STRING:
                ((String[]) out)[i] = src.strings()[j];
                break;
            case FLOAT64:
                ((double[]) out)[i] = src.getDouble(j);
                break;
            case FLOAT32:
                ((float[]) out)[i] = (float) src.getDouble(j);
                break;
            case BOOL:
                ((boolean[]) out)[i] = src.getDouble(j) != 0;
                break;
            case INT8:
            case UINT8:
                ((byte[]) out)[i] = (byte) src.getDouble(j);
                break;
            case INT16:
            case UINT16:
                ((short[]) out)[i] = (short) src.getDouble(j);
                break;
            case INT32:
            case UINT32:
                ((int[]) out)[i] = (int) (long) src.getDouble(j);
                break;
            default:
                ((long[]) out)[i] = src.data() instanceof long[] l ? l[j] : (long) src.getDouble(j);
        }
    }
}
