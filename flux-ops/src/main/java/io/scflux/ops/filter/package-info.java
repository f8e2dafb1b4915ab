/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */

/** scanpy's filter_cells and filter_genes. */
@NullMarked
package io.scflux.ops.filter;

import org.jspecify.annotations.NullMarked;
