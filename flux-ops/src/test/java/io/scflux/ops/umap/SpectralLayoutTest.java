/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.umap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.anndata.CsrMatrix;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A graph of several connected components is laid out a component at a time, as umap-learn's multi-component
 * layout: two rings of 40 cells (and a pair, too small for a spectral layout) land each around its own corner of the
 * cross, {@code +e1}, {@code +e2} and {@code -e1}, within half the distance between corners.
 */
class SpectralLayoutTest {

    /** Rings of 40 cells at 0 and 40, and cells 80 and 81 joined to each other only. */
    private static CsrMatrix graph() {
        CsrMatrix.Builder b = CsrMatrix.builder(82);
        for (int ring = 0; ring < 2; ring++) {
            for (int i = 0; i < 40; i++) {
                int prev = ring * 40 + (i + 39) % 40;
                int next = ring * 40 + (i + 1) % 40;
                b.addRow(new int[] {Math.min(prev, next), Math.max(prev, next)}, new float[] {1f, 1f});
            }
        }
        b.addRow(new int[] {81}, new float[] {1f});
        b.addRow(new int[] {80}, new float[] {1f});
        return b.build();
    }

    @Test
    void eachComponentAroundItsOwnCorner() {
        int[] label = new int[82];
        assertEquals(3, SpectralLayout.components(graph(), label));
        assertEquals(0, label[0]);
        assertEquals(1, label[40]);
        assertEquals(2, label[81]);
        double[] layout = SpectralLayout.of(graph(), 2, new SplittableRandom(0));
        double range = Math.sqrt(2) / 2; // half the distance between +e1 and +e2, the nearest corners
        double[][] corners = {{1, 0}, {0, 1}, {-1, 0}};
        for (int i = 0; i < 82; i++) {
            double[] c = corners[label[i]];
            double dx = layout[2 * i] - c[0];
            double dy = layout[2 * i + 1] - c[1];
            assertTrue(Math.abs(dx) <= range + 1e-9 && Math.abs(dy) <= range + 1e-9, "cell " + i + " near its corner");
        }
        assertArrayEquals(layout, SpectralLayout.of(graph(), 2, new SplittableRandom(0)), "the same layout again");
    }
}
