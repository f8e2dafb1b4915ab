/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * scanpy's {@code pp.neighbors}: each cell's nearest cells in a representation (obsm {@code X_pca}), and the graph
 * made of them, UMAP's fuzzy union or a Gaussian kernel. The graph steps hold the representation, the kNN lists and
 * the graph (linear in cells), never X.
 */
@NullMarked
package io.scflux.ops.neighbors;

import org.jspecify.annotations.NullMarked;
