/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.hdf5;

/**
 * Checks that bytes are UTF-8, as Python decodes them (anndata reads names and categories as {@code str}): a file
 * whose strings are not would be read here and written back unreadable. ASCII, the usual case, costs one comparison a
 * byte.
 */
final class Utf8 {

    private Utf8() {}

    /** The index of the first byte of {@code bytes[0, n)} that is not part of a valid UTF-8 sequence, or -1. */
    static int firstInvalid(byte[] bytes, int n) {
        int i = 0;
        while (i < n) {
            int b = bytes[i];
            if (b >= 0) {
                i++;
                continue;
            }
            int len;
            int min;
            if ((b & 0xE0) == 0xC0) {
                len = 2;
                min = 0x80;
            } else if ((b & 0xF0) == 0xE0) {
                len = 3;
                min = 0x800;
            } else if ((b & 0xF8) == 0xF0) {
                len = 4;
                min = 0x10000;
            } else {
                return i;
            }
            if (i + len > n) {
                return i;
            }
            int cp = b & (0xFF >> (len + 1));
            for (int k = 1; k < len; k++) {
                int c = bytes[i + k];
                if ((c & 0xC0) != 0x80) {
                    return i;
                }
                cp = (cp << 6) | (c & 0x3F);
            }
            if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                return i; // overlong, beyond Unicode, or a surrogate: Python refuses them too
            }
            i += len;
        }
        return -1;
    }
}
