/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */

/** scanpy's pca: the Gram matrix of X folded by blocks, its eigenvectors, and the projection. */
@NullMarked
package io.scflux.ops.pca;

import org.jspecify.annotations.NullMarked;
