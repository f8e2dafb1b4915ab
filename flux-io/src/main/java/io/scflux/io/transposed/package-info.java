/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */

/** The row-major copy of a CSC matrix, spilled to the cache folder in buckets and kept for later runs. */
@NullMarked
package io.scflux.io.transposed;

import org.jspecify.annotations.NullMarked;
