/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.util.Arrays;

/**
 * Sorts the entries of one CSR row by column, reusing its key buffer from row to row: one sorter per block (it is
 * not thread-safe), so that re-indexing rows out of column order allocates per block, not per row.
 */
public final class RowSorter {

    private long[] keys = new long[0];

    /** Sorts {@code idx[from, to)} with {@code val}: insertion sort for short rows, a packed-key sort for long ones. */
    public void sort(int[] idx, float[] val, int from, int to) {
        int n = to - from;
        if (n > 32) {
            if (keys.length < n) {
                keys = new long[Math.max(n, keys.length * 2)];
            }
            for (int k = from; k < to; k++) {
                keys[k - from] = ((long) idx[k] << 32) | (Float.floatToRawIntBits(val[k]) & 0xffffffffL);
            }
            Arrays.sort(keys, 0, n);
            for (int k = from; k < to; k++) {
                idx[k] = (int) (keys[k - from] >>> 32);
                val[k] = Float.intBitsToFloat((int) keys[k - from]);
            }
            return;
        }
        for (int k = from + 1; k < to; k++) {
            int c = idx[k];
            float v = val[k];
            int j = k - 1;
            while (j >= from && idx[j] > c) {
                idx[j + 1] = idx[j];
                val[j + 1] = val[j];
                j--;
            }
            idx[j + 1] = c;
            val[j + 1] = v;
        }
    }
}
