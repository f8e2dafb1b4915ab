/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.synth;

/**
 * Cell barcodes as 10x Genomics writes them: 16 letters of ACGT and {@code -1}. The 16 letters encode 32 bits, and
 * the row goes through a seeded bijection of 32-bit integers, so barcodes look random and are never repeated.
 */
final class Barcodes {

    private static final char[] BASES = {'A', 'C', 'G', 'T'};

    private Barcodes() {}

    static String of(long seed, int row) {
        int x = row + (int) CountModel.mix64(seed);
        x ^= x >>> 16;
        x *= 0x7feb352d;
        x ^= x >>> 15;
        x *= 0x846ca68b;
        x ^= x >>> 16;
        char[] c = new char[18];
        for (int i = 0; i < 16; i++) {
            c[i] = BASES[(x >>> (30 - 2 * i)) & 3];
        }
        c[16] = '-';
        c[17] = '1';
        return new String(c);
    }
}
