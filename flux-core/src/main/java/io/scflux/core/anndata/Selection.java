/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Which rows (or columns) of an axis to keep, as anndata indexes: everything, positions in any order, a boolean
 * mask or index names. Resolved against the axis when the subset is made.
 */
public final class Selection {

    private static final Selection ALL = new Selection(null, null, null);

    private final int @Nullable [] positions;
    private final boolean @Nullable [] mask;
    private final String @Nullable [] names;

    private Selection(int @Nullable [] positions, boolean @Nullable [] mask, String @Nullable [] names) {
        this.positions = positions;
        this.mask = mask;
        this.names = names;
    }

    public static Selection all() {
        return ALL;
    }

    /** Positions in the order given (repeats allowed, as numpy allows them). */
    public static Selection of(int... positions) {
        return new Selection(positions.clone(), null, null);
    }

    /** Positions {@code [from, to)}. */
    public static Selection range(int from, int to) {
        int[] p = new int[Math.max(0, to - from)];
        Arrays.setAll(p, i -> from + i);
        return new Selection(p, null, null);
    }

    /** The positions where {@code mask} is true; the mask must cover the whole axis. */
    public static Selection mask(boolean[] mask) {
        return new Selection(null, mask.clone(), null);
    }

    /** The entries named {@code names} in the axis index, in that order. */
    public static Selection names(String... names) {
        return new Selection(null, null, names.clone());
    }

    public boolean isAll() {
        return this == ALL;
    }

    /** The positions this selects on {@code axis}, or null for all of them. */
    public int @Nullable [] resolve(Frame axis) {
        Objects.requireNonNull(axis, "axis");
        int n = axis.size();
        if (this == ALL) {
            return null;
        }
        if (mask != null) {
            if (mask.length != n) {
                throw new IllegalArgumentException("mask of " + mask.length + " entries for an axis of " + n);
            }
            int count = 0;
            for (boolean b : mask) {
                count += b ? 1 : 0;
            }
            int[] p = new int[count];
            for (int i = 0, j = 0; i < n; i++) {
                if (mask[i]) {
                    p[j++] = i;
                }
            }
            return p;
        }
        if (names != null) {
            int[] p = new int[names.length];
            for (int i = 0; i < names.length; i++) {
                p[i] = axis.positionOf(names[i]);
                if (p[i] < 0) {
                    throw new IllegalArgumentException("no entry named '" + names[i] + "' in the index");
                }
            }
            return p;
        }
        int[] given = Objects.requireNonNull(positions, "positions"); // what is left once mask and names are not
        for (int p : given) {
            if (p < 0 || p >= n) {
                throw new IndexOutOfBoundsException("position " + p + " outside [0, " + n + ")");
            }
        }
        return given.clone();
    }
}
