/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.neighbors;

/**
 * Each cell's {@code k} nearest cells, itself first, nearest first (ties by position): what every graph is made of.
 * Row {@code i} is entries {@code i * k .. i * k + k - 1} of both arrays.
 *
 * @param nCells    the cells
 * @param k         each cell's neighbours, itself included
 * @param indices   the neighbours' positions
 * @param distances their distances (the cell's own is 0)
 */
record KnnLists(int nCells, int k, int[] indices, float[] distances) {

    KnnLists {
        if ((long) nCells * k != indices.length || indices.length != distances.length) {
            throw new IllegalArgumentException(nCells + " cells x " + k + " neighbours, but " + indices.length
                    + " indices and " + distances.length + " distances");
        }
    }
}
