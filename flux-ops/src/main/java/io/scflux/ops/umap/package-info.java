/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * scanpy's {@code tl.umap}: a two-dimensional map of the neighbors' graph, laid out as umap-learn lays it out (a
 * spectral start, then stochastic gradient descent on the fuzzy cross-entropy with negative sampling).
 */
@NullMarked
package io.scflux.ops.umap;

import org.jspecify.annotations.NullMarked;
