/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.qc;

/**
 * Moves the largest values of a range of an array to its front (quickselect, expected linear time), so that the sum
 * of a cell's top {@code n} values needs no sort of the whole row.
 */
final class TopValues {

    private TopValues() {}

    /**
     * Rearranges {@code a[from, to)} so that {@code a[from, from + k)} holds its {@code k} largest values, in no
     * particular order.
     */
    static void selectLargest(float[] a, int from, int to, int k) {
        int lo = from;
        int hi = to - 1;
        int target = from + k - 1;
        while (lo < hi) {
            float pivot = medianOfThree(a[lo], a[(lo + hi) >>> 1], a[hi]);
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (a[i] > pivot) {
                    i++;
                }
                while (a[j] < pivot) {
                    j--;
                }
                if (i <= j) {
                    float t = a[i];
                    a[i++] = a[j];
                    a[j--] = t;
                }
            }
            // now a[lo, j] >= pivot >= a[i, hi] and a(j, i) == pivot
            if (target <= j) {
                hi = j;
            } else if (target >= i) {
                lo = i;
            } else {
                return;
            }
        }
    }

    private static float medianOfThree(float x, float y, float z) {
        return Math.max(Math.min(x, y), Math.min(Math.max(x, y), z));
    }
}
