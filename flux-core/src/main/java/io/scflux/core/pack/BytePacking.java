/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.pack;

/**
 * Byte-aligned frame-of-reference packing in groups of {@link #GROUP} values: each group of non-negative ints takes
 * the fewest whole bytes (0, 1, 2 or 4) that hold its largest value, little-endian. Bit-packing to the exact width
 * (as BPCells does) stores counts about 1.4 times smaller, but a byte-wide group widens to ints or floats in a loop
 * the JIT vectorizes, which makes unpacking faster than reading the block again from the page cache (measured with
 * {@code scflux bench pack}; docs/benchmarks.md gives the latest figures).
 */
final class BytePacking {

    static final int GROUP = 128;

    private BytePacking() {}

    /** Bytes per value for a group whose largest value is {@code max >= 0}: 0, 1, 2 or 4. */
    static int bytesFor(int max) {
        return max == 0 ? 0 : max < 1 << 8 ? 1 : max < 1 << 16 ? 2 : 4;
    }

    /** Writes {@code n} values of {@code b} bytes each from {@code src[from..]} at {@code dst[at..]}. */
    static void pack(int[] src, int from, int n, int b, byte[] dst, int at) {
        if (b == 1) {
            for (int i = 0; i < n; i++) {
                dst[at + i] = (byte) src[from + i];
            }
            return;
        }
        for (int i = 0; i < n; i++) {
            int v = src[from + i];
            for (int k = 0; k < b; k++) {
                dst[at + i * b + k] = (byte) (v >>> (8 * k));
            }
        }
    }

    /** Reads {@code n} values of {@code b} bytes each from {@code src[at..]} into {@code dst[to..]}. */
    static void unpack(byte[] src, int at, int b, int[] dst, int to, int n) {
        switch (b) {
            case 0 -> java.util.Arrays.fill(dst, to, to + n, 0);
            case 1 -> {
                for (int i = 0; i < n; i++) {
                    dst[to + i] = src[at + i] & 0xff;
                }
            }
            case 2 -> {
                for (int i = 0; i < n; i++) {
                    dst[to + i] = src[at + 2 * i] & 0xff | (src[at + 2 * i + 1] & 0xff) << 8;
                }
            }
            default -> {
                for (int i = 0; i < n; i++) {
                    int p = at + 4 * i;
                    dst[to + i] = src[p] & 0xff
                            | (src[p + 1] & 0xff) << 8
                            | (src[p + 2] & 0xff) << 16
                            | (src[p + 3] & 0xff) << 24;
                }
            }
        }
    }

    /** As {@link #unpack} into floats (counts become the block's values without an int copy). */
    static void unpack(byte[] src, int at, int b, float[] dst, int to, int n) {
        switch (b) {
            case 0 -> java.util.Arrays.fill(dst, to, to + n, 0f);
            case 1 -> {
                for (int i = 0; i < n; i++) {
                    dst[to + i] = src[at + i] & 0xff;
                }
            }
            case 2 -> {
                for (int i = 0; i < n; i++) {
                    dst[to + i] = src[at + 2 * i] & 0xff | (src[at + 2 * i + 1] & 0xff) << 8;
                }
            }
            default -> {
                for (int i = 0; i < n; i++) {
                    int p = at + 4 * i;
                    dst[to + i] = src[p] & 0xff
                            | (src[p + 1] & 0xff) << 8
                            | (src[p + 2] & 0xff) << 16
                            | (src[p + 3] & 0xff) << 24;
                }
            }
        }
    }
}
