/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.concat;

import java.util.Comparator;

/**
 * natsort's default order, which anndata sorts merged categories with: runs of digits compare as numbers
 * ({@code T2 < T10}), other runs as text, and a number sorts before text at the same place.
 */
final class NaturalOrder implements Comparator<String> {

    static final NaturalOrder INSTANCE = new NaturalOrder();

    private NaturalOrder() {}

    @Override
    public int compare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            boolean da = Character.isDigit(a.charAt(i));
            boolean db = Character.isDigit(b.charAt(j));
            int ei = run(a, i, da);
            int ej = run(b, j, db);
            int c;
            if (da && db) {
                c = compareNumbers(a, i, ei, b, j, ej);
            } else if (da != db) {
                c = da ? -1 : 1;
            } else {
                c = compareText(a, i, ei, b, j, ej);
            }
            if (c != 0) {
                return c;
            }
            i = ei;
            j = ej;
        }
        int c = Integer.compare(a.length() - i, b.length() - j);
        return c != 0 ? c : a.compareTo(b);
    }

    private static int run(String s, int from, boolean digits) {
        int k = from;
        while (k < s.length() && Character.isDigit(s.charAt(k)) == digits) {
            k++;
        }
        return k;
    }

    /**
     * Digit runs {@code a[i, ei)} and {@code b[j, ej)} by value: without leading zeros the longer is larger, else they
     * compare as text.
     */
    private static int compareNumbers(String a, int i, int ei, String b, int j, int ej) {
        int x = skipZeros(a, i, ei);
        int y = skipZeros(b, j, ej);
        int c = Integer.compare(ei - x, ej - y);
        return c != 0 ? c : compareText(a, x, ei, b, y, ej);
    }

    /** Where {@code s[from, to)} starts without its leading zeros, keeping its last digit. */
    private static int skipZeros(String s, int from, int to) {
        int k = from;
        while (k < to - 1 && s.charAt(k) == '0') {
            k++;
        }
        return k;
    }

    /** {@code a[i, ei)} against {@code b[j, ej)} as {@link String#compareTo} compares them. */
    private static int compareText(String a, int i, int ei, String b, int j, int ej) {
        int n = Math.min(ei - i, ej - j);
        for (int k = 0; k < n; k++) {
            char x = a.charAt(i + k);
            char y = b.charAt(j + k);
            if (x != y) {
                return x - y;
            }
        }
        return (ei - i) - (ej - j);
    }
}
