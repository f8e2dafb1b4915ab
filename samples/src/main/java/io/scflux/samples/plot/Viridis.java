/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.plot;

import java.awt.Color;

/**
 * matplotlib's viridis, the colour map scanpy gives a numeric column: dark purple for the lowest values through teal
 * to yellow for the highest, even in lightness so that a grey print and a colour-blind reader still see the order.
 */
final class Viridis {

    /**
     * matplotlib's 256-entry table at every sixteenth of the scale (its colours at 0, 1/16, ..., 1); straight lines
     * between them stay within 5/255 of each of its entries.
     */
    private static final int[] ANCHORS = {
        0x440154, 0x48186a, 0x472d7b, 0x424086, 0x3b528b, 0x33638d, 0x2c728e, 0x26828e, 0x21918c, 0x1fa088, 0x28ae80,
        0x3fbc73, 0x5ec962, 0x84d44b, 0xaddc30, 0xd8e219, 0xfde725
    };

    private Viridis() {}

    /** The colour at {@code t} on the scale from 0 (lowest) to 1 (highest); outside, the nearest end's. */
    static Color at(double t) {
        double position = Math.max(0, Math.min(1, t)) * (ANCHORS.length - 1);
        int k = Math.min(ANCHORS.length - 2, (int) position);
        double f = position - k;
        int from = ANCHORS[k];
        int to = ANCHORS[k + 1];
        return new Color(mix(from >> 16, to >> 16, f), mix(from >> 8, to >> 8, f), mix(from, to, f));
    }

    private static int mix(int from, int to, double f) {
        int a = from & 0xff;
        int b = to & 0xff;
        return (int) Math.round(a + (b - a) * f);
    }
}
