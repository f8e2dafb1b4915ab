/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.fuzz;

/** How one fuzz case ended; the last three are defects. */
enum FuzzOutcome {
    /** Every step finished: the damage left a readable file (or hit bytes no step reads). */
    READ,
    /** A step stopped with a {@code ScfluxFormatException} naming the file and the HDF5 path. */
    REJECTED,
    /** A declared size beyond the memory budget was refused up front ({@code MemoryBudgetExceededException}). */
    REFUSED_TOO_LARGE,
    /** Any other exception reached the caller. */
    UNCLEAR_ERROR,
    /** An {@code OutOfMemoryError}: a declared size was believed. */
    OUT_OF_MEMORY,
    /** The steps did not finish within the time limit. */
    TIMEOUT;

    boolean isDefect() {
        return this == UNCLEAR_ERROR || this == OUT_OF_MEMORY || this == TIMEOUT;
    }
}
