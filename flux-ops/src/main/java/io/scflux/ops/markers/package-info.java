/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */

/** scanpy's rank_genes_groups: each group's genes ranked against the rest. */
@NullMarked
package io.scflux.ops.markers;

import org.jspecify.annotations.NullMarked;
